// One tab stop for a group of controls (a roving tabindex, as the ARIA Authoring Practices
// describe for tab lists and trees): only the current item has tabindex 0, the others -1, and
// the arrow keys move among them (the tree's own ↑/↓ handler in render.js moves the focus; this
// follows it). The current item is the one focused last, else the one `current` picks, else the
// first.

/**
 * @param {HTMLElement} container
 * @param {string} selector the items
 * @param {{keys?: string[], current?: (items: HTMLElement[]) => HTMLElement | undefined, activate?: boolean}} [options]
 *   keys: the arrow keys that move here ([previous, next]; none when the items move focus
 *   themselves); activate: a move also clicks the item (tabs that follow the focus)
 * @returns {() => void} call after the items are drawn again
 */
export function rovingTabStop(container, selector, { keys, current, activate = false } = {}) {
  let last;
  const items = () => /** @type {HTMLElement[]} */ (Array.from(container.querySelectorAll(selector)));
  const settle = () => {
    const all = items();
    const chosen = (last && all.includes(last) ? last : undefined) ?? current?.(all) ?? all[0];
    for (const item of all) item.setAttribute('tabindex', item === chosen ? '0' : '-1');
  };
  container.addEventListener('focusin', (event) => {
    const item = /** @type {HTMLElement} */ (event.target).closest?.(selector);
    if (!item || !container.contains(item)) return;
    last = item;
    settle();
  });
  if (keys) {
    container.addEventListener('keydown', (event) => {
      const all = items();
      const at = all.indexOf(/** @type {HTMLElement} */ (/** @type {HTMLElement} */ (event.target).closest?.(selector)));
      if (at === -1) return;
      let next;
      if (event.key === keys[0]) next = (at - 1 + all.length) % all.length;
      else if (event.key === keys[1]) next = (at + 1) % all.length;
      else if (event.key === 'Home') next = 0;
      else if (event.key === 'End') next = all.length - 1;
      else return;
      event.preventDefault();
      all[next].focus();
      if (activate) all[next].click();
    });
  }
  settle();
  return settle;
}
