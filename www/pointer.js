// @ts-check
// What the person plays with: a mouse or trackpad, which usually comes with
// a keyboard, or a touch screen, which usually does not. Texts that name
// keys (Ctrl+C, the shortcuts) are shown only with the first; a touch phone
// gets words for tapping instead.

/** A primary pointer that hovers and points finely: a mouse or a trackpad. */
const KEYBOARD_POINTER = '(hover: hover) and (pointer: fine)';

const query = typeof matchMedia === 'function' ? matchMedia(KEYBOARD_POINTER) : null;

/** Whether the device plays by touch (no fine, hovering primary pointer), so key names mean nothing there. */
export function isTouchDevice() {
  return query ? !query.matches : false;
}
