// The chat of a game between two people (docs/protocol.md, "Chat"): the messages the viewer
// may read, a line to write one (300 characters, a counter as you near it), and each player's
// two choices: mute the opponent, let spectators read. Messages are shown as text, never as
// markup. The game's socket says when something changed ({"type":"chat"}); the panel then
// asks for what came after the last message it has.

import { h, clear } from './dom.js';
import { get, post } from './api.js';

const time = ms => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export class ChatPanel {
  /** `gameId`; `seat()` the viewer's seat now, or null (a spectator). */
  constructor(gameId, seat) {
    this.id = gameId;
    this.seat = seat;
    this.view = null;
    this.messages = [];
    this.last = 0;
    this.error = null;
    this.sending = false;
    this.root = h('section', { class: 'chat', 'data-testid': 'chat', 'aria-label': 'Chat' });
    this.root.hidden = true;
  }

  /** Loads what the viewer may read (all of it, or what came after the last message). */
  async refresh(all = false) {
    try {
      const v = await get(`/api/games/${this.id}/chat?after=${all ? 0 : this.last}`);
      const first = !this.view;
      if (all) { this.messages = []; this.last = 0; }
      let news = null;
      for (const m of v.messages) {
        if (m.seq <= this.last) continue;
        this.messages.push(m);
        this.last = m.seq;
        if (!first && !all && m.seat !== this.seat()) news = m;
      }
      this.view = v;
      if (news) this.tell(news);
    } catch (e) {
      if (!this.view) return; // no chat to show (the game cannot be read)
    }
    this.render();
  }

  /**
   * The opponent wrote while the chat is out of sight (below the board on a phone): a button
   * fixed at the bottom of the window says so and takes you there; it goes when the chat
   * comes into view.
   */
  tell(m) {
    if (!this.alert || !this.logEl) return;
    const r = this.logEl.getBoundingClientRect();
    if (r.top < window.innerHeight && r.bottom > 0) return;
    this.alert.textContent = `New message from ${m.name}`;
    this.alert.hidden = false;
  }

  /** A note on the game's socket: a message or a player's choice changed. */
  onNote(msg) {
    // a choice (no number) can hide or show earlier messages: read them all again
    this.refresh(msg.seq === null || msg.seq === undefined);
  }

  async send(text) {
    if (this.sending || !text.trim()) return false;
    this.sending = true;
    this.error = null;
    if (this.sendButton) this.sendButton.disabled = true;
    try {
      const m = await post(`/api/games/${this.id}/chat`, { text });
      if (m.seq > this.last) { this.messages.push(m); this.last = m.seq; }
      return true;
    } catch (e) {
      this.error = e.message;
      return false;
    } finally {
      this.sending = false;
      this.render();
    }
  }

  async choose(change) {
    try {
      const v = await post(`/api/games/${this.id}/chat/settings`, change);
      this.view = v;
      this.messages = [];
      this.last = 0;
      for (const m of v.messages) { this.messages.push(m); this.last = m.seq; }
      this.error = null;
    } catch (e) {
      this.error = e.message;
    }
    this.render();
  }

  /** The parts that stay while messages come and go (the line being written keeps its focus). */
  build(v) {
    const max = v.limits.max_chars;
    // a log region (new lines read out politely) around the list of messages, which scrolls
    this.list = h('ol', { class: 'chat-lines' });
    this.logEl = h('div', { class: 'chat-log', 'data-testid': 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Chat messages', tabindex: 0 }, this.list);
    this.input = h('input', { type: 'text', id: 'chat-input', 'data-testid': 'chat-input', maxlength: max, autocomplete: 'off', placeholder: 'Message your opponent', 'aria-describedby': 'chat-count' });
    const count = h('span', { id: 'chat-count', class: 'chat-count muted', 'aria-live': 'polite' });
    this.counted = () => {
      const left = max - [...this.input.value].length;
      count.textContent = left <= 50 ? `${left} left` : '';
    };
    this.input.addEventListener('input', this.counted);
    this.sendButton = h('button', { type: 'submit', 'data-testid': 'chat-send' }, 'Send');
    this.form = h('form', { class: 'chat-form', onsubmit: async e => {
      e.preventDefault();
      if (await this.send(this.input.value)) { this.input.value = ''; this.counted(); }
    } }, h('label', { for: 'chat-input', class: 'sr-only' }, 'Message'), this.input, this.sendButton, count);
    this.closedEl = h('p', { class: 'muted', 'data-testid': 'chat-closed' });
    this.errorEl = h('p', { class: 'message error', role: 'alert', 'data-testid': 'chat-error' });
    this.choicesEl = h('div', { class: 'chat-choices' });
    this.alert = h('button', { type: 'button', class: 'chat-alert', 'data-testid': 'chat-alert', onclick: () => {
      this.alert.hidden = true;
      this.root.scrollIntoView({ block: 'center' });
      if (!this.form.hidden) this.input.focus({ preventScroll: true });
    } });
    this.alert.hidden = true;
    if (window.IntersectionObserver) {
      new IntersectionObserver(seen => { if (seen.some(e => e.isIntersecting)) this.alert.hidden = true; }).observe(this.logEl);
    }
    this.root.append(h('h2', { class: 'small' }, 'Chat'), this.logEl, this.form, this.closedEl, this.errorEl, this.choicesEl, this.alert);
  }

  render() {
    const v = this.view;
    // players see it in a game between two people (and what was said, after); spectators
    // only while both players let them read
    const show = !!v && (v.open || this.messages.length > 0) && (this.seat() ? true : v.readable);
    this.root.hidden = !show;
    if (!show) return;
    if (!this.list) this.build(v);
    const log = this.logEl;
    const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    clear(this.list);
    for (const m of this.messages) {
      this.list.append(h('li', { class: 'chat-line' + (m.seat === this.seat() ? ' mine' : ''), 'data-seq': m.seq },
        h('span', { class: 'chat-who' }, m.seat === this.seat() ? 'You' : m.name),
        h('time', { class: 'chat-time', datetime: new Date(m.at_ms).toISOString() }, time(m.at_ms)),
        h('span', { class: 'chat-text', 'data-testid': 'chat-text' }, m.text)));
    }
    if (!this.messages.length) this.list.append(h('li', { class: 'muted chat-empty' }, v.can_write ? 'No messages yet.' : 'No messages.'));
    if (atEnd) log.scrollTop = log.scrollHeight;
    this.form.hidden = !v.can_write;
    this.sendButton.disabled = this.sending;
    this.closedEl.hidden = v.can_write || !v.closed;
    this.closedEl.textContent = v.closed || '';
    this.errorEl.hidden = !this.error;
    this.errorEl.textContent = this.error || '';
    clear(this.choicesEl);
    if (v.mine) {
      const box = (key, label) => h('label', { class: 'chat-choice' },
        h('input', { type: 'checkbox', 'data-testid': `chat-${key}`, checked: v.mine[key], onchange: e => this.choose({ [key]: e.target.checked }) }), ' ', label);
      this.choicesEl.append(box('mute', 'Mute opponent'), box('spectators', 'Let spectators read'),
        h('span', { class: 'muted chat-readers', 'data-testid': 'chat-readers' }, v.spectators_read ? 'Spectators read this chat.' : 'Spectators read it only if both of you allow it.'));
    }
  }
}
