// `workload-map edit`: a merge patch of one component's pod spec, written through the
// definition's paths, as a JSON Patch.

import { outputFormat, parse, print } from '../command.mjs';
import { CliError, EXIT_OK } from '../errors.mjs';
import { EDIT_OPTIONS, EDIT_OUTPUT, editInput, printEdit } from '../edits.mjs';

export const HELP = `Merge-patch one component's pod spec, writing through the definition's paths.

Usage:
  workload-map edit -f FILE|- --component NAME [--instance ID] --merge JSON [--definition FILE] [-o json|yaml]

The merge patch (RFC 7396) applies to the pod spec as the definition reads it: the PodSpec
(podSpecPath), the template's spec (podTemplateSpecPath) or the fragmented pod spec
(containers, container, image, resources, schedulerName, ...). Without --instance, every
instance of the component is edited. An edit that would change components, instance ids or
replicas is refused.

${EDIT_OUTPUT}

Options:
  -f, --file FILE        The manifest ("-" reads standard input); one object
  -c, --component NAME   The component (as in the definition, e.g. replicatedjob)
  -i, --instance ID      One instance (e.g. workers); default: every instance
  -m, --merge JSON       The merge patch, e.g. '{"schedulerName":"kai-scheduler"}'
  -d, --definition FILE  Use this definition instead of the catalog
  -o, --output FORMAT    json (default) or yaml
  -h, --help             Show this help

Exit codes: 0 ok (also when nothing changes), 1 the edit was refused (the reason is printed),
2 usage error or unreadable input, 4 no definition covers the object's type.
`;

export const OPTIONS = {
  ...EDIT_OPTIONS,
  component: { type: 'string', short: 'c', valueName: 'NAME', description: 'The component' },
  instance: { type: 'string', short: 'i', valueName: 'ID', description: 'One instance (default: every instance)' },
  merge: { type: 'string', short: 'm', valueName: 'JSON', description: 'The merge patch (RFC 7396)' },
};

export async function run(args) {
  const { values, positionals } = parse(args, OPTIONS, 'edit');
  if (values.help) return print(HELP, EXIT_OK);
  const format = outputFormat(values.output ?? 'json', ['json', 'yaml'], 'edit');
  if (positionals.length > 0) throw new CliError(`edit reads the manifest from -f FILE, not from arguments ("${positionals[0]}")`);
  if (!values.component) throw new CliError('edit needs --component NAME\nRun "workload-map edit --help" for usage.');
  if (values.merge === undefined) throw new CliError('edit needs --merge JSON (an RFC 7396 merge patch)\nRun "workload-map edit --help" for usage.');
  let merge;
  try {
    merge = JSON.parse(values.merge);
  } catch (error) {
    throw new CliError(`--merge is not JSON: ${error.message}`);
  }
  const { object, definition } = await editInput(values, 'edit');
  const result = definition.editPodSpec(object, { component: values.component, instance: values.instance ?? null, merge });
  definition.free();
  return printEdit(result, format);
}
