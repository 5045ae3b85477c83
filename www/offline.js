// @ts-check
// Registers the service worker (site root, relative URL) and offers a reload
// when a new version has been installed in the background.

import { t } from './i18n.js';

/**
 * Registers `../sw.js` relative to this module, so the site works from any
 * sub-path. `onUpdate(apply)` is called when a new version waits; calling
 * `apply()` activates it and reloads the page once it has taken over.
 * Returns the registration, or null where service workers are unavailable.
 */
export async function registerServiceWorker(onUpdate = showUpdateBanner) {
  if (!('serviceWorker' in navigator)) return null;
  const scriptUrl = new URL('../sw.js', import.meta.url);
  const scope = new URL('../', import.meta.url);
  let registration;
  try {
    registration = await navigator.serviceWorker.register(scriptUrl, { scope: scope.href });
  } catch (err) {
    // Offline support is a bonus: a failed registration must not break the game.
    console.warn('service worker not registered:', err && err.message);
    return null;
  }
  // Some hosts (and Playwright's `serviceWorkers: 'block'`) resolve without a registration.
  if (!registration) return null;
  // The page reloads only after the user agreed to an update, never on the first install.
  let reloading = false;
  let agreed = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (agreed && !reloading) {
      reloading = true;
      location.reload();
    }
  });
  const offer = (worker) => {
    onUpdate(() => {
      agreed = true;
      worker.postMessage({ type: 'SKIP_WAITING' });
    });
  };
  if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener('statechange', () => {
      // Only an update (a controller already exists) needs the user's word.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) offer(worker);
    });
  });
  return registration;
}

/** A small banner with a Reload button, built with DOM APIs (no innerHTML). */
export function showUpdateBanner(apply) {
  if (document.getElementById('update-banner')) return;
  const banner = document.createElement('div');
  banner.id = 'update-banner';
  banner.className = 'update-banner';
  banner.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.dataset.i18n = 'offline.update';
  text.textContent = t('offline.update');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'btn primary';
  button.dataset.i18n = 'btn.reload';
  button.textContent = t('btn.reload');
  button.addEventListener('click', () => {
    button.disabled = true;
    apply();
  });
  banner.append(text, ' ', button);
  document.body.append(banner);
}
