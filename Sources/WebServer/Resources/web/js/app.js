// Composes the app: the API and its event stream, the store, the recorder, the shell,
// the screens and the router. No rules of its own.

import * as api from './api.js';
import { createAppStore } from './store.js';
import { createRouter } from './router.js';
import { createRecorder } from './recorder.js';
import { createShell } from './shell.js';
import { createNotesScreen } from './notes.js';
import { createNoteScreen } from './note.js';
import { createSearch } from './search.js';
import { createTasksScreen } from './tasks.js';
import { createModelsScreen } from './models.js';
import { createSpeakersScreen } from './speakers.js';
import { createAskScreen } from './ask.js';

const store = createAppStore();
const events = api.createEventStream();
const shell = createShell(document);
const toast = (message, options) => shell.toast(message, options);
const recorder = createRecorder({ api });

let refreshing = null;
function refreshStatus() {
  if (!refreshing) {
    refreshing = api.getStatus()
      .then((status) => store.set({ status }))
      .catch(() => {})
      .finally(() => { refreshing = null; });
  }
  return refreshing;
}

const router = createRouter((route) => show(route));
const navigate = (hash, options) => router.navigate(hash, options);
const search = createSearch({ api, router, navigate });

const screens = {
  notes: { screen: createNotesScreen({ api, events, store, recorder, toast, navigate }), title: 'Notes' },
  note: { screen: createNoteScreen({ api, events, toast, navigate, setTitle: (t) => shell.setTitle(t) }), title: null },
  search: { screen: search.screen, title: 'Search' },
  ask: { screen: createAskScreen({ api }), title: 'Ask' },
  tasks: { screen: createTasksScreen({ api, events, toast }), title: 'Action items' },
  models: { screen: createModelsScreen({ api, events, store, toast, refreshStatus }), title: 'Models' },
  speakers: { screen: createSpeakersScreen({ api, events, toast }), title: 'Speakers' },
  notFound: {
    screen: { mount: (container) => shell.renderNotFound(container), unmount() {} },
    title: 'Not found',
  },
};

let current = null;

function mount(route) {
  if (current) current.screen.unmount();
  shell.clearMain();
  current = { name: route.name, screen: screens[route.name].screen };
  shell.setTitle(screens[route.name].title);
  current.screen.mount(shell.main, route);
}

function show(route) {
  shell.setActive(route.name);
  search.syncHeader(route);
  if (current && current.name === route.name && current.screen.update) {
    current.screen.update(route, () => mount(route));
  } else {
    mount(route);
  }
}

store.watch('connection', (state) => shell.setConnection(state));
store.watch('recording', (active) => shell.setRecording(active));
events.on('connection', ({ state }) => store.set({ connection: state }));
events.on('library', refreshStatus);
events.on('resync', refreshStatus);
events.on('model', (data) => {
  if (data && data.status !== 'downloading') refreshStatus();
});

search.bindHeader(document);
refreshStatus();
events.start();
router.start();
