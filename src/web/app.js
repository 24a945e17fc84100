// The story desk: live stories, a story's members, search by id, a message's explanation.
// Every text from the API (titles, ids, methods) is hostile input: it reaches the page only
// through textContent and attribute setters, never innerHTML. The page polls the read routes
// (GET /v1/clusters every REFRESH_MS while "live" is on); it needs no build step and no CDN.

const REFRESH_MS = 5000;
const PAGE = 50;

const $ = (id) => document.getElementById(id);
const state = { order: 'recent', cursor: 0, story: null, memberCursor: 0, selected: null, timer: null };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === 'className') node.className = value;
    else node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** UTC, as the API's epoch milliseconds: "11-20 08:00"; the full time in the cell's tooltip. */
function time(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  return new Date(ms).toISOString().slice(5, 16).replace('T', ' ');
}

function fullTime(ms) {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
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
    const error = new Error(body?.error?.message || `HTTP ${res.status}`);
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

function storyRow(story) {
  const row = el(
    'tr',
    { 'data-id': story.id, className: state.story === story.id ? 'selected' : undefined },
    el(
      'td',
      { title: story.title || story.id },
      story.title || '(no title)',
      el('span', { className: 'id' }, story.id),
    ),
    el('td', { className: 'num' }, story.size),
    el('td', { title: fullTime(story.firstSeen) }, time(story.firstSeen)),
    el('td', { title: fullTime(story.lastSeen) }, time(story.lastSeen)),
  );
  row.addEventListener('click', () => openStory(story.id));
  return row;
}

async function loadStories(append) {
  const cursor = append ? state.cursor : 0;
  try {
    const page = await api(`/v1/clusters?order=${state.order}&limit=${PAGE}&cursor=${cursor}`);
    const body = $('stories').tBodies[0];
    const rows = page.items.map(storyRow);
    if (append) body.append(...rows);
    else body.replaceChildren(...rows);
    state.cursor = page.next ?? 0;
    $('more').hidden = page.next === null;
    $('stories-empty').hidden = body.rows.length > 0;
    $('status').textContent = `updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    $('status').textContent = `not updated: ${error.message}`;
  }
}

function memberRow(m) {
  const row = el(
    'tr',
    { 'data-id': m.id, className: state.selected === m.id ? 'selected' : undefined },
    el('td', { title: m.title || m.id }, m.title || '(no title)', el('span', { className: 'id' }, m.id)),
    el('td', {}, el('span', { className: `badge ${m.verdict}` }, m.verdict.replace('_', ' '))),
    el('td', { className: 'num' }, m.similarity === undefined ? '' : m.similarity.toFixed(3)),
    el('td', { title: m.duplicateOf || '' }, m.duplicateOf || ''),
    el('td', { title: fullTime(m.ts) }, time(m.ts)),
  );
  row.addEventListener('click', () => explain(m.id));
  return row;
}

async function openStory(id, append) {
  showError('');
  try {
    const cursor = append ? state.memberCursor : 0;
    const story = await api(`/v1/clusters/${encodeURIComponent(id)}?limit=${PAGE}&cursor=${cursor}`);
    state.story = story.id;
    $('story').hidden = false;
    $('story-title').textContent = story.title || '(no title)';
    $('story-meta').textContent =
      `${story.size} messages (${story.members.total} in the window) · story ${story.id} · ` +
      `first ${fullTime(story.firstSeen)} · last ${fullTime(story.lastSeen)}`;
    const rows = story.members.members.map(memberRow);
    const body = $('members').tBodies[0];
    if (append) body.append(...rows);
    else body.replaceChildren(...rows);
    state.memberCursor = story.members.next ?? 0;
    $('more-members').hidden = story.members.next === null;
    for (const row of $('stories').tBodies[0].rows)
      row.classList.toggle('selected', row.dataset.id === story.id);
  } catch (error) {
    showError(error.message);
  }
}

function sentence(v) {
  const sim =
    v.similarity === undefined
      ? ''
      : ` (similarity ${v.similarity.toFixed(3)}${v.method ? `, ${v.method}` : ''})`;
  if (v.verdict === 'duplicate')
    return `A duplicate of ${v.duplicateOf}: the same text after normalization${sim}.`;
  if (v.verdict === 'near_duplicate')
    return `A near-duplicate of ${v.duplicateOf}, the earliest close match${sim}.`;
  if (v.method?.startsWith('story:'))
    return `Unique, but about the same event as an earlier message: it joined that story${sim}.`;
  return v.clusterId === v.id
    ? 'Unique: no earlier message in the window was close enough; it started its own story.'
    : `Unique${sim}.`;
}

async function explain(id) {
  showError('');
  try {
    const v = await api(`/v1/messages/${encodeURIComponent(id)}`);
    state.selected = v.id;
    $('explain').hidden = false;
    $('explain-text').textContent = sentence(v);
    const fields = [
      ['message', v.id],
      ['verdict', v.verdict],
      ['duplicate of', v.duplicateOf],
      ['similarity', v.similarity],
      ['method', v.method],
      ['story now', v.clusterId],
      ['story at decision', v.clusterIdAtDecision],
      ['time', fullTime(v.ts)],
      ['sequence', v.seq],
    ];
    const dl = $('explain-fields');
    dl.replaceChildren();
    for (const [name, value] of fields) {
      if (value === undefined || value === null || value === '') continue;
      const dd = el('dd', {});
      if (name === 'duplicate of') {
        const link = el('a', { href: '#' }, value);
        link.addEventListener('click', (e) => {
          e.preventDefault();
          explain(value);
        });
        dd.append(link);
      } else if (name === 'story now') {
        const link = el('a', { href: '#' }, value);
        link.addEventListener('click', (e) => {
          e.preventDefault();
          openStory(value);
        });
        dd.append(link);
      } else dd.textContent = String(value);
      dl.append(el('dt', {}, name), dd);
    }
    for (const row of $('members').tBodies[0].rows) row.classList.toggle('selected', row.dataset.id === v.id);
    return v;
  } catch (error) {
    if (error.status !== 404) showError(error.message);
    return null;
  }
}

async function search(id) {
  if (!id) return;
  showError('');
  const v = await explain(id);
  if (v) return openStory(v.clusterId);
  try {
    await api(`/v1/clusters/${encodeURIComponent(id)}?limit=1`);
    return openStory(id);
  } catch {
    showError(`"${id}" is no message or story in the window.`);
  }
}

function schedule() {
  clearInterval(state.timer);
  state.timer = $('live').checked ? setInterval(() => loadStories(false), REFRESH_MS) : null;
}

document.addEventListener('DOMContentLoaded', () => {
  $('order').addEventListener('change', (e) => {
    state.order = e.target.value;
    loadStories(false);
  });
  $('live').addEventListener('change', schedule);
  $('more').addEventListener('click', () => loadStories(true));
  $('more-members').addEventListener('click', () => state.story && openStory(state.story, true));
  $('search').addEventListener('submit', (e) => {
    e.preventDefault();
    search($('search-id').value.trim());
  });
  const wanted = new URLSearchParams(location.search);
  if (wanted.get('order') === 'size') {
    state.order = 'size';
    $('order').value = 'size';
  }
  loadStories(false).then(() => {
    const id = wanted.get('id');
    if (id) search(id);
    else if (wanted.has('open')) {
      const first = $('stories').tBodies[0].rows[0];
      if (first) openStory(first.dataset.id);
    }
  });
  schedule();
});
