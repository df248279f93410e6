// `workload-map resume`: the definition's resumeActions on one object, as a JSON Patch.

import { actionCommand, EDIT_OPTIONS } from '../edits.mjs';
import { HELP as SUSPEND_HELP } from './suspend.mjs';

export const HELP = SUSPEND_HELP.replaceAll('suspendActions', 'resumeActions')
  .replace('Suspend a workload', 'Resume a workload')
  .replace('workload-map suspend', 'workload-map resume')
  .replace('Suspending a suspended workload', 'Resuming a running workload');

export const OPTIONS = EDIT_OPTIONS;

export function run(args) {
  return actionCommand(args, 'resume', HELP);
}
