// Whether a gang group's minimum is met, from the view's own numbers: the group's pods (the
// core's `groups[].pods`) and each pod's `ready` (the core's `pods.items` in the role tree).
// The core's Group says how many pods must be schedulable together, not how many are ready, so
// the count is made here from what the view says, never from the objects.

/** Every live pod of the view's role tree by name (`{name, ready, ...}`). */
export function podsByName(view) {
  const found = new Map();
  const visit = (component) => {
    for (const pod of component?.pods?.items ?? []) found.set(pod.name, pod);
    for (const instance of component?.instances ?? []) {
      for (const pod of instance.pods?.items ?? []) found.set(pod.name, pod);
      for (const child of instance.children ?? []) visit(child);
    }
  };
  visit(view?.root);
  return found;
}

/**
 * A group's readiness against its minimum, or null when there is nothing to say (no pods given,
 * or a group made of sub-groups, whose minimum is 0).
 *
 * @returns {{ready: number, pods: number, min: number, met: boolean, bound: boolean, text: string} | null}
 */
export function gangReadiness(group, pods) {
  if (!group.pods || group.minAvailable === 0) return null;
  const ready = group.pods.filter((name) => pods.get(name)?.ready === true).length;
  const min = group.minAvailable;
  const met = !group.incomplete && ready >= min;
  const counted = `${ready} of ${group.pods.length} pod${group.pods.length === 1 ? '' : 's'} ready, minAvailable ${group.minAvailableText}`;
  const verdict = ready < min ? 'not schedulable as a gang' : met ? 'the gang is met' : 'the minimum is a lower bound: it may not be met';
  return { ready, pods: group.pods.length, min, met, bound: Boolean(group.incomplete), text: `${counted}: ${verdict}` };
}
