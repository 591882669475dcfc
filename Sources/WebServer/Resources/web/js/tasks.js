// Action items across all notes (#/tasks), grouped by note, with a "Show completed" switch
// and a person filter. Ticking is optimistic and rolls back if the server says no.

import { el, on, delegate, qs, qsa, replace, setText, toggleAttr } from './dom.js';
import { formatDate } from './format.js';
import { links } from './router.js';

const LEAVE_DELAY_MS = 900;

// View

function createTasksView(container, handlers) {
  const showCompleted = el('input', {
    type: 'checkbox', role: 'switch', class: 'switch', id: 'show-completed', 'data-testid': 'show-completed',
  });
  const person = el('select', { id: 'person-filter', 'data-testid': 'person-filter' },
    el('option', { value: '' }, 'Everyone'));
  const status = el('p', { class: 'list-status', 'aria-live': 'polite' });
  const groups = el('div', { class: 'task-groups' });

  container.append(el('section', { class: 'screen tasks-view', 'data-testid': 'tasks-view', 'aria-labelledby': 'tasks-heading' },
    el('div', { class: 'screen-head' }, el('h1', { id: 'tasks-heading' }, 'Action items')),
    el('div', { class: 'filters' },
      el('div', { class: 'switch-field' }, showCompleted, el('label', { for: 'show-completed' }, 'Show completed')),
      el('div', { class: 'select-field' }, el('label', { for: 'person-filter' }, 'Person'), person)),
    status,
    groups));

  on(showCompleted, 'change', () => handlers.setShowCompleted(showCompleted.checked));
  on(person, 'change', () => handlers.setPerson(person.value));
  delegate(groups, '[data-testid="task-item"] input[type="checkbox"]', 'change', (event, box) => {
    handlers.toggle(box.closest('[data-testid="task-item"]').dataset.id, box.checked);
  });

  function findItem(itemID) {
    return qsa('[data-testid="task-item"]', groups).find((n) => n.dataset.id === itemID);
  }

  function buildItem(item) {
    const boxID = `all-task-${item.id}`;
    return el('li', { class: ['task', item.done && 'done'], 'data-testid': 'task-item', 'data-id': item.id },
      el('input', { type: 'checkbox', id: boxID, checked: Boolean(item.done) }),
      el('label', { for: boxID, class: 'task-text' }, item.task),
      (item.people || []).length
        ? el('span', { class: 'task-people' }, ...item.people.map((p) => el('span', { class: 'chip small' }, p)))
        : null);
  }

  return {
    renderFilters({ showCompleted: completed, person: selected, people }) {
      showCompleted.checked = completed;
      const names = [...people];
      if (selected && !names.includes(selected)) names.unshift(selected);
      replace(person,
        el('option', { value: '' }, 'Everyone'),
        ...names.map((name) => el('option', { value: name }, name)));
      person.value = selected || '';
    },

    renderLoading(loading) {
      toggleAttr(groups, 'aria-busy', loading);
      if (loading && !groups.firstChild) setText(status, 'Loading action items…');
    },

    renderError(message) {
      setText(status, `Couldn’t load the action items: ${message}`);
    },

    renderGroups(list, { showCompleted: completed, person: selected }) {
      const count = list.reduce((n, g) => n + g.items.length, 0);
      if (count === 0) {
        const who = selected ? ` for ${selected}` : '';
        setText(status, completed
          ? `No action items${who} yet. They are found when notes are analysed.`
          : `Nothing open${who}. Action items appear here when notes are analysed.`);
      } else {
        setText(status, `${count} ${count === 1 ? 'action item' : 'action items'}${completed ? '' : ' open'}`);
      }
      replace(groups, ...list.map((group) =>
        el('section', { class: 'card task-group', 'data-testid': 'task-group', 'data-note-id': group.noteID },
          el('h2', { class: 'task-group-title' },
            el('a', { href: links.note(group.noteID) }, group.noteTitle || 'Untitled note'),
            el('time', { class: 'muted', dateTime: group.noteCreatedAt || '' }, formatDate(group.noteCreatedAt))),
          el('ul', { class: 'task-list' }, ...group.items.map(buildItem)))));
    },

    setItemDone(itemID, done) {
      const item = findItem(itemID);
      if (!item) return;
      qs('input', item).checked = done;
      item.classList.toggle('done', done);
    },

    markLeaving(itemID, leaving) {
      const item = findItem(itemID);
      if (item) item.classList.toggle('leaving', leaving);
    },

    removeItem(itemID) {
      const item = findItem(itemID);
      if (!item) return;
      const group = item.closest('[data-testid="task-group"]');
      const hadFocus = item.contains(document.activeElement);
      item.remove();
      if (group && !qs('[data-testid="task-item"]', group)) group.remove();
      if (hadFocus) {
        const next = qs('[data-testid="task-item"] input', groups);
        if (next) next.focus();
      }
    },

    setCount(count, completed) {
      setText(status, count === 0
        ? 'Nothing open. Action items appear here when notes are analysed.'
        : `${count} ${count === 1 ? 'action item' : 'action items'}${completed ? '' : ' open'}`);
    },
  };
}

// Controller

export function createTasksScreen({ api, events, toast }) {
  const filters = { showCompleted: false, person: '' };
  let people = [];
  let groups = [];
  let view = null;
  let offs = [];
  let generation = 0;
  let reloadTimer = null;
  const leaving = new Map(); // item id → timer
  const noteStates = new Map();

  function itemCount() {
    return groups.reduce((n, g) => n + g.items.length, 0);
  }

  async function load() {
    const mine = ++generation;
    view.renderLoading(true);
    try {
      const answer = await api.listTasks({ completed: filters.showCompleted, person: filters.person || undefined });
      if (mine !== generation || !view) return;
      groups = (answer.groups || []).filter((g) => (g.items || []).length > 0);
      people = answer.people || [];
      // Notes with tasks are done; a note that is not among them and finishes later may add some.
      for (const group of groups) noteStates.set(group.noteID, 'done');
      for (const timer of leaving.values()) clearTimeout(timer);
      leaving.clear();
      view.renderFilters({ ...filters, people });
      view.renderGroups(groups, filters);
    } catch (error) {
      if (mine === generation && view) view.renderError(error.message);
    } finally {
      if (mine === generation && view) view.renderLoading(false);
    }
  }

  function reloadSoon() {
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => view && load(), 400);
  }

  function findItem(itemID) {
    for (const group of groups) {
      const item = group.items.find((i) => i.id === itemID);
      if (item) return { group, item };
    }
    return null;
  }

  function dropItem(itemID) {
    leaving.delete(itemID);
    const found = findItem(itemID);
    if (!found) return;
    found.group.items = found.group.items.filter((i) => i.id !== itemID);
    groups = groups.filter((g) => g.items.length > 0);
    view.removeItem(itemID);
    view.setCount(itemCount(), filters.showCompleted);
  }

  async function toggle(itemID, done) {
    const found = findItem(itemID);
    if (!found) return;
    found.item.done = done;
    view.setItemDone(itemID, done);
    clearTimeout(leaving.get(itemID));
    leaving.delete(itemID);
    view.markLeaving(itemID, false);
    if (done && !filters.showCompleted) {
      view.markLeaving(itemID, true);
      leaving.set(itemID, setTimeout(() => view && dropItem(itemID), LEAVE_DELAY_MS));
    }
    try {
      const answer = await api.setTaskDone(itemID, done);
      if (answer && answer.item) Object.assign(found.item, answer.item);
    } catch (error) {
      clearTimeout(leaving.get(itemID));
      leaving.delete(itemID);
      if (!view) return;
      const still = findItem(itemID);
      if (still) {
        still.item.done = !done;
        view.setItemDone(itemID, !done);
        view.markLeaving(itemID, false);
      } else {
        reloadSoon();
      }
      toast(`The action item wasn’t updated: ${error.message}`, { tone: 'error' });
    }
  }

  function onNote(summary) {
    if (!summary || !summary.id) return;
    const before = noteStates.get(summary.id);
    noteStates.set(summary.id, summary.state);
    const group = groups.find((g) => g.noteID === summary.id);
    const finished = before !== 'done' && summary.state === 'done';
    const renamed = group && summary.title && summary.title !== group.noteTitle;
    if (finished || renamed) reloadSoon();
  }

  return {
    mount(container) {
      view = createTasksView(container, {
        setShowCompleted(value) {
          filters.showCompleted = value;
          load();
        },
        setPerson(value) {
          filters.person = value;
          load();
        },
        toggle,
      });
      view.renderFilters({ ...filters, people });
      offs = [
        events.on('note', onNote),
        events.on('deleted', (data) => {
          if (groups.some((g) => g.noteID === data.id)) reloadSoon();
        }),
        events.on('library', reloadSoon),
        events.on('resync', reloadSoon),
      ];
      load();
    },
    unmount() {
      for (const off of offs) off();
      offs = [];
      clearTimeout(reloadTimer);
      for (const timer of leaving.values()) clearTimeout(timer);
      leaving.clear();
      generation += 1;
      view = null;
    },
  };
}
