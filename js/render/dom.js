// The only way the playground builds DOM: elements with text children. Strings always become
// text nodes, attributes are set one by one, and nothing is ever parsed as HTML, so names,
// labels and messages from a manifest cannot inject markup.
//
// `patch` draws into an element that already holds an earlier drawing: it keeps the nodes it can
// (matched by `key`, else by tag in order), changes only the attributes and texts that differ,
// and moves, adds or removes the rest. Event handlers go through one listener per node and
// event that calls the newest handler, so a kept node runs the handlers of the newest drawing.

const KEY = Symbol('key');
const HANDLERS = Symbol('handlers');

/**
 * @param {string} tag
 * @param {object | null} [props] class, title, dataset (`data`), attributes (`attrs`), events
 *   (`on`), `key` (which node of an earlier drawing this one is, for `patch`)
 * @param {...(Node | string | number | null | undefined | false | Array)} children
 */
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  if (props) {
    if (props.class) element.className = props.class;
    if (props.title !== undefined) element.title = String(props.title);
    for (const [key, value] of Object.entries(props.data ?? {})) element.dataset[key] = String(value);
    for (const [key, value] of Object.entries(props.attrs ?? {})) {
      if (value !== undefined && value !== null && value !== false) element.setAttribute(key, String(value));
    }
    if (props.on) {
      element[HANDLERS] = {};
      for (const [event, handler] of Object.entries(props.on)) listen(element, event, handler);
    }
    if (props.key !== undefined) element[KEY] = String(props.key);
  }
  append(element, children);
  return element;
}

function listen(element, event, handler) {
  if (!(event in element[HANDLERS])) element.addEventListener(event, (e) => element[HANDLERS][event]?.(e));
  element[HANDLERS][event] = handler;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else if (child instanceof Node) element.append(child);
    else element.append(document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/**
 * Makes an element's children those given, as `fill` does, reusing the nodes already there
 * (see above). A node drawn with a `key` is reused only for the same key.
 */
export function patch(element, ...children) {
  const fresh = document.createDocumentFragment();
  append(fresh, children);
  morphChildren(element, Array.from(fresh.childNodes));
}

/** The identity of a node for matching: tag (or text) and key. */
function identity(node) {
  return node.nodeType === Node.ELEMENT_NODE ? `${node.localName}\u0000${node[KEY] ?? ''}` : `#${node.nodeType}`;
}

function morphChildren(parent, wanted) {
  // Old children by identity, in order; each is taken at most once.
  const old = new Map();
  for (const child of parent.childNodes) {
    const id = identity(child);
    const list = old.get(id);
    if (list) list.push(child);
    else old.set(id, [child]);
  }
  const used = new Set();
  let cursor = parent.firstChild;
  for (const next of wanted) {
    const candidates = old.get(identity(next));
    let node = candidates?.shift();
    if (node) {
      used.add(node);
      morph(node, next);
    } else {
      node = next;
    }
    // Skip old nodes already taken or about to be removed only when they are in the way.
    while (cursor && cursor !== node && used.has(cursor)) cursor = cursor.nextSibling;
    if (cursor === node) cursor = cursor.nextSibling;
    else parent.insertBefore(node, cursor);
  }
  for (const list of old.values()) for (const node of list) node.remove();
}

function morph(node, next) {
  if (node.nodeType !== Node.ELEMENT_NODE) {
    if (node.nodeValue !== next.nodeValue) node.nodeValue = next.nodeValue;
    return;
  }
  // `part` is set by the host after drawing (the element's ::part names): kept.
  for (const { name } of Array.from(node.attributes)) if (!next.hasAttribute(name) && name !== 'part') node.removeAttribute(name);
  for (const { name, value } of next.attributes) if (node.getAttribute(name) !== value) node.setAttribute(name, value);
  const handlers = next[HANDLERS];
  if (handlers || node[HANDLERS]) {
    node[HANDLERS] ??= {};
    for (const event of Object.keys(node[HANDLERS])) if (!handlers || !(event in handlers)) node[HANDLERS][event] = undefined;
    for (const [event, handler] of Object.entries(handlers ?? {})) listen(node, event, handler);
  }
  morphChildren(node, Array.from(next.childNodes));
}
