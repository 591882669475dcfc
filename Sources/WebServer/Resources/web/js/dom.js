// Tiny DOM helpers. Only view code imports this module.
// Nothing here ever parses markup: nodes are built with createElement and
// text goes in with text nodes, so a person's words can never become HTML.

/** The first element matching `selector` inside `scope`. */
export function qs(selector, scope = document) {
  return scope.querySelector(selector);
}

/** Every element matching `selector` inside `scope`, as an array. */
export function qsa(selector, scope = document) {
  return Array.from(scope.querySelectorAll(selector));
}

/** Adds a listener and returns the function that removes it. */
export function on(target, type, handler, options) {
  target.addEventListener(type, handler, options);
  return () => target.removeEventListener(type, handler, options);
}

/**
 * One listener on `target` for every descendant matching `selector`.
 * `handler(event, matched)` gets the matching element. Returns the remover.
 */
export function delegate(target, selector, type, handler, options) {
  return on(target, type, (event) => {
    const start = event.target instanceof Element ? event.target : event.target.parentElement;
    const matched = start && start.closest(selector);
    if (matched && target.contains(matched)) handler(event, matched);
  }, options);
}

// Attributes set as properties rather than as markup attributes.
const PROPERTIES = new Set(['value', 'checked', 'selected', 'indeterminate', 'textContent']);

/**
 * Builds an element: el('a', {href: '#/', class: 'link', 'data-id': id}, 'text', child).
 * `true` sets a boolean attribute, `false`, `null` and `undefined` leave it out.
 * Children may be strings (added as text), nodes, arrays of those, or null/false (skipped).
 */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === false || value === null || value === undefined) continue;
      if (key === 'class') node.className = Array.isArray(value) ? value.filter(Boolean).join(' ') : value;
      else if (key === 'dataset') Object.assign(node.dataset, value);
      else if (PROPERTIES.has(key)) node[key] = value;
      else node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(node, children);
  return node;
}

/** Appends strings (as text), nodes and nested arrays of them. */
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces every child of `node` with `children`. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/** Sets the text of `node` only when it changed (keeps selection and screen readers calm). */
export function setText(node, text) {
  const value = String(text ?? '');
  if (node.textContent !== value) node.textContent = value;
}

/** Sets or removes `aria-busy`, `hidden` or any boolean attribute. */
export function toggleAttr(node, name, present) {
  if (present) node.setAttribute(name, '');
  else node.removeAttribute(name);
}

/** True when the person asked the system for less motion. */
export function prefersReducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
