// Wiring only: find the panels, connect them to the store, the player and the API. Logic lives in the modules.

import './style.css';
import { fetchExamples, runCode } from './api.js';
import { createEditor } from './editor.js';
import { createExamplesMenu } from './examples.js';
import { createGraphPanel } from './graph.js';
import { codeFromHash, hashWithCode } from './hash.js';
import { createLedgerPanel } from './ledger.js';
import { createOutputPanel } from './output.js';
import { createPlayer } from './player.js';
import { createStore } from './store.js';
import { createTimelinePanel } from './timeline.js';

const byTestId = (id) => /** @type {HTMLElement} */ (document.querySelector(`[data-testid="${id}"]`));

const store = createStore();
const player = createPlayer();
const runButton = /** @type {HTMLButtonElement} */ (byTestId('run'));
const editor = createEditor(byTestId('editor'), { doc: codeFromHash(location.hash) ?? '', onRun: run });
const graph = createGraphPanel(byTestId('graph'));
const ledger = createLedgerPanel(byTestId('ledger'), { onSeek: (k) => player.seek(k) });
const timeline = createTimelinePanel(byTestId('timeline'), player);
const output = createOutputPanel({
  stdout: byTestId('stdout'),
  error: byTestId('error'),
  warnings: /** @type {HTMLElement} */ (document.querySelector('#warnings')),
  status: /** @type {HTMLElement} */ (document.querySelector('#run-status')),
});

function render() {
  const k = player.position();
  const final = store.final();
  const snap = store.at(k);
  const out = store.outputAt(k);
  graph.render(final, snap);
  ledger.render(final, snap, store.events);
  timeline.render(snap, store.events);
  output.render(out);
  // The error's line once the run is over, else the line of the current step.
  const errorLine = k >= store.events.length ? out.error?.line : null;
  const line = errorLine || snap.event?.line;
  editor.mark(line ? { line, kind: errorLine ? 'error' : 'step' } : null);
  runButton.classList.toggle('running', store.status === 'running');
  output.setStatus(store.status, store.events.length, store.seed);
}
player.onChange(render);

/** @type {AbortController|null} */
let inflight = null;

async function run() {
  inflight?.abort();
  const controller = new AbortController();
  inflight = controller;
  const code = editor.getCode();
  history.replaceState(null, '', hashWithCode(location.hash, code));
  store.start();
  player.pause();
  player.setLength(0);
  graph.clear();
  try {
    const end = await runCode(code, {
      signal: controller.signal,
      onEvent: (e) => {
        if (inflight !== controller) return; // a newer run took over
        store.push(e);
        player.setLength(store.events.length, { follow: true });
      },
    });
    if (inflight !== controller) return;
    store.finish(end);
  } catch (err) {
    if (controller.signal.aborted) return;
    store.fail(/** @type {Error} */ (err));
  }
  player.setLength(store.events.length);
  player.seek(store.events.length); // a finished run opens on its last step: the whole ledger, all of stdout
}

runButton.addEventListener('click', run);

window.addEventListener('hashchange', () => {
  const code = codeFromHash(location.hash);
  if (code !== null && code !== editor.getCode()) editor.setCode(code);
});

createExamplesMenu(/** @type {HTMLSelectElement} */ (document.querySelector('#examples')), {
  load: fetchExamples,
  onPick: (code) => {
    editor.setCode(code);
    history.replaceState(null, '', hashWithCode(location.hash, code));
  },
}).then((examples) => {
  if (!editor.getCode() && examples.length) editor.setCode(examples[0].code);
});

render();
