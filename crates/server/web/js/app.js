// Tabula's browser client: a small router over plain ES modules. Routes: `/` (lobby),
// `/login`, `/game/ID` (`?invite=CODE` joins), `/replay/ID`, `/player/ID`, `/stats`, `/trainer`, `/study` (the analysis
// board), `/rules` and `/rules/GAME` (the rules pages, `#CODE` for the rule behind an ending),
// `/preferences` (js/preferences.js).

import { get, post } from './api.js';
import { h, clear } from './dom.js';
import { GamePage } from './game-page.js';
import { lobbyPage, loginPage, playerPage, statsPage, replayPage } from './pages.js';
import { studyPage } from './study.js';
import { studyNfPage } from './study-nf.js';
import { studyGrasshopperPage } from './study-grasshopper.js';
import { trainerPage } from './trainer.js';
import { preferencesPage, load as loadPreferences } from './preferences.js';
import { rulesPage } from './rules.js';

const app = {
  me: null,
  page: null,
  setMe(me) {
    this.me = me;
    renderNav();
    loadPreferences(this); // someone else's preferences (colours, ...) from now on
  },
  navigate(path, replace = false) {
    const from = location.pathname;
    if (replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    // another rule of the rules page shown: no reload, just go there
    if (this.page && this.page.keepOnHashChange && location.pathname === from) this.page.onHash(location.hash);
    else route();
  },
  async logout() {
    try { await post('/api/logout'); } catch (e) { /* the cookie is cleared anyway */ }
    this.setMe(null);
    this.navigate('/');
  },
  /** Ends every session and API token of the player (every device, every script). */
  async logoutAll() {
    try { await post('/api/logout-all'); } catch (e) { /* this session is gone anyway */ }
    this.setMe(null);
    this.navigate('/');
  },
};

function renderNav() {
  const el = clear(document.getElementById('nav-me'));
  if (app.me) {
    el.append(
      h('a', { href: `/player/${app.me.id}`, 'data-link': true, 'data-testid': 'nav-me' }, app.me.name, app.me.kind === 'guest' ? ' (guest)' : ''),
      h('button', { type: 'button', class: 'linkish', 'data-testid': 'logout', onclick: () => app.logout() }, 'Log out'));
  } else {
    el.append(h('a', { href: '/login', 'data-link': true, 'data-testid': 'nav-login' }, 'Log in'));
  }
}

/** The phone's menu (the header's links folded behind the Menu button, style.css). */
function setMenu(open) {
  const header = document.querySelector('header.top');
  const toggle = header && header.querySelector('.menu-toggle');
  if (!toggle) return;
  header.classList.toggle('open', open);
  toggle.setAttribute('aria-expanded', String(open));
}

function initMenu() {
  const header = document.querySelector('header.top');
  const toggle = header && header.querySelector('.menu-toggle');
  if (!toggle) return;
  toggle.addEventListener('click', () => setMenu(!header.classList.contains('open')));
  document.addEventListener('keydown', e => {
    if (e.key === 'Escape' && header.classList.contains('open')) { setMenu(false); toggle.focus(); }
  });
  // a press outside the open menu closes it
  document.addEventListener('pointerdown', e => { if (header.classList.contains('open') && !header.contains(e.target)) setMenu(false); });
}

async function route() {
  setMenu(false);
  if (app.page && app.page.destroy) app.page.destroy();
  app.page = null;
  const main = document.getElementById('main');
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const params = new URLSearchParams(location.search);
  let m;
  try {
    if (path === '/') app.page = await lobbyPage(app, main);
    else if (path === '/login') app.page = await loginPage(app, main, params);
    else if (path === '/stats') app.page = await statsPage(app, main);
    else if (path === '/study') {
      const game = params.get('game');
      app.page = game === 'never-finishing' ? await studyNfPage(app, main, params)
        : game === 'grasshopper' ? await studyGrasshopperPage(app, main, params)
          : await studyPage(app, main, params);
    }
    else if (path === '/trainer') app.page = await trainerPage(app, main);
    else if (path === '/preferences') app.page = await preferencesPage(app, main);
    else if ((m = /^\/rules(?:\/([^/]+))?$/.exec(path))) app.page = await rulesPage(app, main, m[1] && decodeURIComponent(m[1]));
    else if ((m = /^\/game\/([^/]+)$/.exec(path))) {
      const page = new GamePage(app, main, decodeURIComponent(m[1]), params);
      app.page = page;
      await page.start();
    } else if ((m = /^\/replay\/([^/]+)$/.exec(path))) app.page = await replayPage(app, main, decodeURIComponent(m[1]));
    else if ((m = /^\/player\/([^/]+)$/.exec(path))) app.page = await playerPage(app, main, decodeURIComponent(m[1]));
    else {
      document.title = 'Not found — Tabula';
      clear(main).append(h('h1', {}, 'Not found'), h('p', {}, 'No page here. ', h('a', { href: '/', 'data-link': true }, 'Back to the lobby.')));
    }
  } catch (e) {
    clear(main).append(h('div', { class: 'error-box', role: 'alert', 'data-testid': 'page-error' }, `Something went wrong: ${e.message}`));
  }
  // move focus to the page for screen readers, without scrolling
  if (document.activeElement === document.body) main.focus({ preventScroll: true });
}

// Same-origin links marked data-link navigate inside the app.
document.addEventListener('click', e => {
  const a = e.target.closest && e.target.closest('a[data-link]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  app.navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', () => {
  // a link to another part of the same page (the rules' #anchors) does not reload the page
  if (app.page && app.page.keepOnHashChange && app.page.path === location.pathname) app.page.onHash(location.hash);
  else route();
});

(async () => {
  try { app.me = (await get('/api/session')).player; } catch (e) { app.me = null; }
  loadPreferences(app); // the colours now; the game page waits for the rest
  initMenu();
  renderNav();
  route();
})();
