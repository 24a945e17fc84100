// The story desk: live stories, a story's messages, title search and filters, and why each
// message was flagged, side by side with the message it matched. Every text from the API
// (titles, snippets, ids, URLs) is hostile input: it reaches the page only through textContent
// and attribute setters, never innerHTML, and only http(s) URLs become links. The page polls the
// read routes while "live" is on, refreshing the stories shown and the open story in place; the
// address bar follows what is open (?story=&message=), so every view has a link. No build step,
// no CDN.

const REFRESH_MS = 5000;
const PAGE = 50;

const $ = (id) => document.getElementById(id);

const state = {
  order: 'recent',
  q: '',
  minSize: '',
  window: '',
  /** Stories shown, in order, and the cursor after them (null: none follow). */
  stories: [],
  next: null,
  story: null,
  /** The open story's members loaded so far, and the cursor after them. */
  members: [],
  memberNext: null,
  message: null,
  timer: null,
  refreshing: false,
};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'className') node.className = value;
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Times: the API gives epoch milliseconds (or RFC 3339 strings); shown in local time with the
// year, the ISO time in the tooltip. One format everywhere.
const FORMAT = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

function toDate(value) {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms) : null;
}

function timeEl(value) {
  const date = toDate(value);
  if (!date) return el('span', {}, '');
  return el('time', { datetime: date.toISOString(), title: date.toISOString() }, FORMAT.format(date));
}

/** An http(s) URL as a URL object, else null: nothing else becomes a link. */
function safeUrl(value) {
  if (typeof value !== 'string') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function sourceLink(value) {
  const url = safeUrl(value);
  if (!url) return null;
  const host = url.hostname.replace(/^www\./, '');
  return el(
    'a',
    { href: url.href, target: '_blank', rel: 'noopener noreferrer', className: 'source', title: url.href },
    host,
  );
}

// With DOPPEL_API_TOKEN set on the server the /v1 routes need a bearer token: asked once on the
// first 401 and kept for this tab only (sessionStorage), never in the URL or a cookie.
function token() {
  return sessionStorage.getItem('doppel-token') || '';
}

async function api(path, retried = false) {
  const headers = { accept: 'application/json' };
  if (token()) headers.authorization = `Bearer ${token()}`;
  const res = await fetch(path, { headers });
  const body = await res.json().catch(() => null);
  if (res.status === 401 && !retried) {
    const given = window.prompt('This doppel API needs its access token');
    if (given) {
      sessionStorage.setItem('doppel-token', given.trim());
      return api(path, true);
    }
  }
  if (!res.ok) {
    const error = new Error(body?.error?.message || body?.detail || `HTTP ${res.status}`);
    error.status = res.status;
    throw error;
  }
  return body;
}

function showError(message) {
  const p = $('error');
  p.textContent = message || '';
  p.hidden = !message;
}

// ---- the address bar ----------------------------------------------------------------------

function viewUrl() {
  const params = new URLSearchParams();
  if (state.order !== 'recent') params.set('order', state.order);
  if (state.q) params.set('q', state.q);
  if (state.minSize) params.set('minSize', state.minSize);
  if (state.window) params.set('window', state.window);
  if (state.story) params.set('story', state.story);
  if (state.message) params.set('message', state.message);
  const query = params.toString();
  return query ? `/?${query}` : '/';
}

/** The address bar follows what is open: a new history entry for each story or message opened. */
function pushView(replace) {
  const url = viewUrl();
  $('permalink').href = url;
  if (`${location.pathname}${location.search}` === url) return;
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
}

// ---- stories --------------------------------------------------------------------------------

function listQuery(cursor, limit) {
  const params = new URLSearchParams({ order: state.order, limit: String(limit) });
  if (state.q) params.set('q', state.q);
  if (state.minSize) params.set('minSize', state.minSize);
  if (state.window) params.set('since', String(Date.now() - Number(state.window)));
  if (cursor) params.set('cursor', cursor);
  return `/v1/clusters?${params}`;
}

function storyRow(story) {
  const row = el(
    'li',
    {
      'data-id': story.id,
      tabindex: 0,
      className: state.story === story.id ? 'row selected' : 'row',
      'aria-current': state.story === story.id ? 'true' : null,
    },
    el('span', { className: 'title', dir: 'auto' }, story.title || '(no title)'),
    el(
      'span',
      { className: 'meta' },
      el('span', { className: 'size' }, `${story.size} messages`),
      el('span', { className: 'when' }, 'last ', timeEl(story.lastSeen)),
      el('span', { className: 'when' }, 'first ', timeEl(story.firstSeen)),
    ),
    el('span', { className: 'id' }, story.id),
  );
  row.addEventListener('click', () => openStory(story.id));
  return row;
}

function renderStories() {
  const list = $('stories');
  const focused = document.activeElement?.closest?.('#stories li')?.dataset.id;
  list.replaceChildren(...state.stories.map(storyRow));
  if (focused) list.querySelector(`li[data-id="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  $('more').hidden = state.next === null;
  $('stories-empty').hidden = state.stories.length > 0;
  $('stories-empty').textContent = state.q
    ? `No story title holds "${state.q}".`
    : 'No stories yet: a story is two or more messages about one event.';
}

/**
 * Loads the first page again, and as many more pages as were shown (a refresh keeps "more
 * stories"); `append` loads one more page after those shown.
 */
async function loadStories(append) {
  try {
    if (append) {
      const page = await api(listQuery(state.next, PAGE));
      state.stories = state.stories.concat(page.items);
      state.next = page.next;
    } else {
      const wanted = Math.max(PAGE, state.stories.length);
      let items = [];
      let next = null;
      do {
        const page = await api(listQuery(next, PAGE));
        items = items.concat(page.items);
        next = page.next;
      } while (next !== null && items.length < wanted);
      const same = JSON.stringify(items) === JSON.stringify(state.stories) && next === state.next;
      state.stories = items;
      state.next = next;
      if (same) {
        $('status').textContent = `updated ${new Date().toLocaleTimeString()}`;
        return;
      }
    }
    renderStories();
    $('status').textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    $('status').textContent = `not updated: ${error.message}`;
  }
}

// ---- a story and its messages --------------------------------------------------------------

function verdictLabel(m) {
  if (m.verdict === 'duplicate') return 'duplicate';
  if (m.verdict === 'near_duplicate') return 'near-duplicate';
  if (m.method?.startsWith('story:')) return 'joined story';
  return 'original';
}

function verdictClass(m) {
  if (m.verdict !== 'unique') return m.verdict;
  return m.method?.startsWith('story:') ? 'story' : 'unique';
}

function titleOf(id) {
  const m = state.members.find((x) => x.id === id);
  return m?.title || id;
}

function relation(m) {
  if (m.duplicateOf) {
    const sim = m.similarity === undefined ? '' : ` · similarity ${m.similarity.toFixed(3)}`;
    return el(
      'span',
      { className: 'relation' },
      `${verdictLabel(m)} of `,
      el('q', {}, titleOf(m.duplicateOf)),
      sim,
    );
  }
  if (m.method?.startsWith('story:'))
    return el(
      'span',
      { className: 'relation' },
      'same event as ',
      el('q', {}, titleOf(m.via || state.story)),
      ` · story match ${m.method.slice(6)} ${m.similarity === undefined ? '' : m.similarity.toFixed(3)}`,
    );
  return m.id === state.story ? el('span', { className: 'relation' }, 'first in the story') : null;
}

function memberRow(m) {
  const row = el(
    'li',
    {
      'data-id': m.id,
      tabindex: 0,
      className: state.message === m.id ? 'row selected' : 'row',
      'aria-current': state.message === m.id ? 'true' : null,
    },
    el('span', { className: 'title', dir: 'auto' }, m.title || '(no title)'),
    el(
      'span',
      { className: 'meta' },
      el('span', { className: `badge ${verdictClass(m)}` }, verdictLabel(m)),
      m.lang ? el('span', { className: 'lang', title: 'language' }, m.lang) : null,
      sourceLink(m.url),
      timeEl(m.ts),
    ),
    relation(m),
    m.snippet ? el('span', { className: 'snippet', dir: 'auto' }, m.snippet) : null,
    el('span', { className: 'id' }, m.id),
  );
  row.addEventListener('click', (e) => {
    if (e.target.closest('a')) return;
    openMessage(m.id);
  });
  return row;
}

function renderMembers() {
  const verdict = $('member-verdict').value;
  const lang = $('member-lang').value;
  const langs = [...new Set(state.members.map((m) => m.lang).filter(Boolean))].sort();
  const select = $('member-lang');
  const current = select.value;
  select.replaceChildren(
    el('option', { value: '' }, 'all'),
    ...langs.map((l) => el('option', { value: l }, l)),
  );
  select.value = langs.includes(current) ? current : '';
  const shown = state.members.filter(
    (m) => (!verdict || verdictClass(m) === verdict) && (!lang || m.lang === lang),
  );
  const list = $('members');
  const focused = document.activeElement?.closest?.('#members li')?.dataset.id;
  list.replaceChildren(...shown.map(memberRow));
  if (focused) list.querySelector(`li[data-id="${CSS.escape(focused)}"]`)?.focus({ preventScroll: true });
  $('member-count').textContent =
    shown.length === state.members.length ? '' : `${shown.length} of ${state.members.length} shown`;
  $('more-members').hidden = state.memberNext === null;
}

function setDetailOpen(open) {
  $('detail').hidden = !open;
  document.body.classList.toggle('detail-open', open);
}

/**
 * Opens a story (or refreshes the open one in place: `refresh`, keeping the members pages
 * shown); `append` loads its next page of members.
 */
async function openStory(id, { append = false, refresh = false, push = true, message = null } = {}) {
  if (!refresh) showError('');
  try {
    let story;
    if (append) {
      story = await api(`/v1/clusters/${encodeURIComponent(id)}?limit=${PAGE}&cursor=${state.memberNext}`);
      state.members = state.members.concat(story.members.members);
    } else {
      const wanted = refresh ? Math.max(PAGE, state.members.length) : PAGE;
      let members = [];
      let cursor = null;
      do {
        const query = `limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`;
        story = await api(`/v1/clusters/${encodeURIComponent(id)}?${query}`);
        members = members.concat(story.members.members);
        cursor = story.members.next;
      } while (cursor !== null && members.length < wanted);
      story.members.next = cursor;
      state.members = members;
    }
    state.memberNext = story.members.next;
    const changed = state.story !== story.id;
    state.story = story.id;
    if (changed && !refresh) state.message = message;
    $('story-title').textContent = story.title || '(no title)';
    $('story-meta').replaceChildren(
      `${story.size} messages (${story.members.total} in the window) · first `,
      timeEl(story.firstSeen),
      ' · last ',
      timeEl(story.lastSeen),
      ' · story ',
      el('span', { className: 'mono' }, story.id),
    );
    renderMembers();
    setDetailOpen(true);
    for (const row of $('stories').children) {
      const on = row.dataset.id === story.id;
      row.classList.toggle('selected', on);
      if (on) row.setAttribute('aria-current', 'true');
      else row.removeAttribute('aria-current');
    }
    if (!refresh) {
      if (!state.message) $('why').hidden = true;
      pushView(!push);
      if (window.matchMedia('(max-width: 899px)').matches) $('detail').scrollTop = 0;
    }
    return story;
  } catch (error) {
    if (!refresh) showError(error.message);
    return null;
  }
}

function closeDetail() {
  state.story = null;
  state.message = null;
  setDetailOpen(false);
  $('why').hidden = true;
  for (const row of $('stories').children) row.classList.remove('selected');
  pushView(false);
  $('stories').querySelector('li')?.focus({ preventScroll: true });
}

// ---- why ------------------------------------------------------------------------------------

function side(s, label) {
  if (!s)
    return [
      el('h3', {}, label),
      el('p', { className: 'muted' }, 'Not in the window any more: its text is not kept.'),
    ];
  const passages = s.passages.length
    ? s.passages.map((p) => (p.match ? el('mark', {}, p.text) : document.createTextNode(p.text)))
    : [el('span', { className: 'muted' }, '(no text kept)')];
  return [
    el('h3', {}, label),
    el('p', { className: 'side-title', dir: 'auto' }, s.title || '(no title)'),
    el(
      'p',
      { className: 'meta' },
      sourceLink(s.url),
      s.lang ? el('span', { className: 'lang' }, s.lang) : null,
      timeEl(s.ts),
      el('span', { className: 'mono' }, s.id),
    ),
    el('blockquote', { className: 'text', dir: 'auto' }, ...passages),
  ];
}

async function openMessage(id, { push = true, scroll = true } = {}) {
  showError('');
  try {
    const why = await api(`/v1/messages/${encodeURIComponent(id)}/why`);
    state.message = why.id;
    $('why').hidden = false;
    $('why-summary').textContent = why.summary;
    $('why-message').replaceChildren(...side(why.message, 'This message'));
    const otherLabel = why.relation === 'story' ? 'The story message it matched' : 'The message it copies';
    const matched = why.other || ['duplicate', 'near_duplicate', 'story'].includes(why.relation);
    $('why-other').replaceChildren(...(matched ? side(why.other, otherLabel) : []));
    $('why-other').hidden = !matched;
    $('compare').classList.toggle('single', !matched);
    const reasons = why.reasons.length ? why.reasons : ['No evidence: nothing earlier was close enough.'];
    $('why-reasons').replaceChildren(...reasons.map((r) => el('li', {}, r)));
    const fields = [
      ['verdict', why.verdict],
      ['method', why.method],
      ['similarity', why.similarity],
      ...Object.entries(why.evidence || {}),
    ];
    $('why-fields').replaceChildren(
      ...fields
        .filter(([, v]) => v !== null && v !== undefined)
        .flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]),
    );
    for (const row of $('members').children) {
      const on = row.dataset.id === why.id;
      row.classList.toggle('selected', on);
      if (on) row.setAttribute('aria-current', 'true');
      else row.removeAttribute('aria-current');
    }
    pushView(!push);
    if (scroll) $('why').scrollIntoView({ block: 'nearest' });
    return why;
  } catch (error) {
    if (error.status !== 404) showError(error.message);
    return null;
  }
}

/** Opens what the address bar names (a story, a message in its story), as on a first load. */
async function openFromUrl(push) {
  const params = new URLSearchParams(location.search);
  // ?id= (older links): a message or a story id.
  const message = params.get('message') || params.get('id');
  const story = params.get('story');
  if (message) {
    try {
      const v = await api(`/v1/messages/${encodeURIComponent(message)}`);
      await openStory(story || v.clusterId, { push, message: v.id });
      await openMessage(v.id, { push: false, scroll: false });
      return;
    } catch (error) {
      if (error.status !== 404) return showError(error.message);
    }
  }
  if (story || message) {
    const opened = await openStory(story || message, { push });
    if (!opened && message) showError(`"${message}" is no message or story in the window.`);
    return;
  }
  state.story = null;
  state.message = null;
  setDetailOpen(false);
}

// ---- search, filters, keys, refresh -------------------------------------------------------

async function search(q) {
  state.q = q;
  state.stories = [];
  state.next = null;
  $('search-note').hidden = !q;
  $('search-note').textContent = q ? `Stories whose title holds "${q}"` : '';
  await loadStories(false);
  renderStories();
  pushView(false);
  if (!q) return;
  // An id pasted in: open its message, or its story.
  try {
    const v = await api(`/v1/messages/${encodeURIComponent(q)}`);
    await openStory(v.clusterId, { message: v.id });
    await openMessage(v.id, { push: false });
  } catch {
    if (state.stories.length === 1 && state.stories[0].id === q) openStory(q);
  }
}

function rowsOf(target) {
  const list = target.closest('#stories, #members') || $('stories');
  return [...list.children];
}

function moveFocus(step) {
  const active = document.activeElement;
  const inList = active?.closest?.('#stories li, #members li');
  const rows = inList ? rowsOf(inList) : [...$('stories').children];
  if (rows.length === 0) return;
  const at = inList ? rows.indexOf(inList) : -1;
  const next = rows[Math.max(0, Math.min(rows.length - 1, at + step))];
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

function onKey(e) {
  const typing = e.target.closest?.('input, select, textarea');
  if (e.key === 'Escape') {
    if (typing) return e.target.blur();
    e.preventDefault();
    if (!$('why').hidden && state.message) {
      state.message = null;
      $('why').hidden = true;
      for (const row of $('members').children) row.classList.remove('selected');
      pushView(false);
      $('members').querySelector('li')?.focus({ preventScroll: true });
    } else if (state.story) closeDetail();
    return;
  }
  if (typing || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === 'j' || e.key === 'ArrowDown') {
    e.preventDefault();
    moveFocus(1);
  } else if (e.key === 'k' || e.key === 'ArrowUp') {
    e.preventDefault();
    moveFocus(-1);
  } else if (e.key === 'Enter' || e.key === ' ') {
    const row = e.target.closest?.('#stories li, #members li');
    if (!row) return;
    e.preventDefault();
    if (row.closest('#stories')) {
      openStory(row.dataset.id).then(() => $('members').querySelector('li')?.focus({ preventScroll: true }));
    } else openMessage(row.dataset.id);
  } else if (e.key === '/') {
    e.preventDefault();
    $('search-q').focus();
  }
}

async function refresh() {
  if (state.refreshing || document.hidden) return;
  state.refreshing = true;
  try {
    await loadStories(false);
    if (state.story) await openStory(state.story, { refresh: true });
  } finally {
    state.refreshing = false;
  }
}

function schedule() {
  clearInterval(state.timer);
  state.timer = $('live').checked ? setInterval(refresh, REFRESH_MS) : null;
}

function readFilters() {
  const params = new URLSearchParams(location.search);
  state.order = params.get('order') === 'size' ? 'size' : 'recent';
  state.q = params.get('q') || '';
  state.minSize = /^\d+$/.test(params.get('minSize') || '') ? params.get('minSize') : '';
  state.window = /^\d+$/.test(params.get('window') || '') ? params.get('window') : '';
  $('order').value = state.order;
  $('search-q').value = state.q;
  $('min-size').value = state.minSize;
  $('window').value = state.window;
  $('search-note').hidden = !state.q;
  $('search-note').textContent = state.q ? `Stories whose title holds "${state.q}"` : '';
}

document.addEventListener('DOMContentLoaded', () => {
  const reload = () => {
    state.stories = [];
    state.next = null;
    loadStories(false).then(() => pushView(false));
  };
  $('order').addEventListener('change', (e) => {
    state.order = e.target.value;
    reload();
  });
  $('min-size').addEventListener('change', (e) => {
    state.minSize = e.target.value;
    reload();
  });
  $('window').addEventListener('change', (e) => {
    state.window = e.target.value;
    reload();
  });
  $('member-verdict').addEventListener('change', renderMembers);
  $('member-lang').addEventListener('change', renderMembers);
  $('live').addEventListener('change', schedule);
  $('more').addEventListener('click', () => loadStories(true));
  $('more-members').addEventListener('click', () => state.story && openStory(state.story, { append: true }));
  $('close').addEventListener('click', closeDetail);
  $('search').addEventListener('submit', (e) => {
    e.preventDefault();
    search($('search-q').value.trim());
  });
  document.addEventListener('keydown', onKey);
  window.addEventListener('popstate', () => {
    readFilters();
    state.stories = [];
    loadStories(false).then(() => openFromUrl(false));
  });
  readFilters();
  $('permalink').href = `${location.pathname}${location.search}`;
  loadStories(false).then(() => openFromUrl(false));
  schedule();
});
