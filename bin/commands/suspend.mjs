// `workload-map suspend`: the definition's suspendActions on one object, as a JSON Patch.

import { actionCommand, EDIT_OPTIONS, EDIT_OUTPUT } from '../edits.mjs';

export const HELP = `Suspend a workload: apply its definition's suspendActions and print the change.

Usage:
  workload-map suspend -f FILE|- [--definition FILE] [-o json|yaml]

FILE holds one object. Without --definition, the embedded catalog is searched by apiVersion
and kind. Suspending a suspended workload prints an empty patch ([]).

${EDIT_OUTPUT}

Options:
  -f, --file FILE        The manifest ("-" reads standard input)
  -d, --definition FILE  Use this definition instead of the catalog
  -o, --output FORMAT    json (default) or yaml
  -h, --help             Show this help

Exit codes: 0 ok (also when nothing changes), 1 the edit was refused (the reason is printed),
2 usage error or unreadable input, 4 no definition covers the object's type.
`;

export const OPTIONS = EDIT_OPTIONS;

export function run(args) {
  return actionCommand(args, 'suspend', HELP);
}
