// The only way the playground builds DOM: elements with text children. Strings always become
// text nodes, attributes are set one by one, and nothing is ever parsed as HTML, so names,
// labels and messages from a manifest cannot inject markup.

/**
 * @param {string} tag
 * @param {object | null} [props] class, title, dataset (`data`), attributes (`attrs`), events (`on`)
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
    for (const [event, handler] of Object.entries(props.on ?? {})) element.addEventListener(event, handler);
  }
  append(element, children);
  return element;
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
