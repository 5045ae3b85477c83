// @ts-check
// Building elements without innerHTML: text goes in as text, attributes as
// attributes, so data from a record or storage can never become markup.
// And the page's elements by id, typed as what index.html makes them, so
// the type check knows a select has a value and a button can be disabled.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An HTML element. `props`: `class` sets the class name, `text` the text
 * content, anything else an attribute. `children` are nodes or strings.
 */
/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [props]
 * @param {...(Node | string)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/**
 * An SVG element with the given attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
export function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/**
 * The element `id` of the page, as the caller's type (index.html has it).
 * @template {HTMLElement} T
 * @param {string} id
 * @returns {T}
 */
function byId(id) {
  return /** @type {T} */ (document.getElementById(id));
}

/** @type {(id: string) => HTMLElement} */
export const element = byId;
/** @type {(id: string) => HTMLButtonElement} */
export const button = byId;
/** @type {(id: string) => HTMLInputElement} */
export const input = byId;
/** @type {(id: string) => HTMLSelectElement} */
export const select = byId;
/** @type {(id: string) => HTMLFormElement} */
export const form = byId;
