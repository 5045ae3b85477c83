// Building elements without innerHTML: text goes in as text, attributes as
// attributes, so data from a record or storage can never become markup.

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An HTML element. `props`: `class` sets the class name, `text` the text
 * content, anything else an attribute. `children` are nodes or strings.
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

/** An SVG element with the given attributes. */
export function svgEl(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}
