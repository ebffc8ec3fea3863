// Wiring only: find the panels of the page (playground or embed), connect them to the store, the player and the
// API. Logic lives in the modules; a panel the page doesn't have is simply not created.

import './style.css';
import { fetchExamples, runCode } from './api.js';
import { createEditor } from './editor.js';
import { createExamplesMenu } from './examples.js';
import { createGraphPanel } from './graph.js';
import { codeFromHash, hashWithCode } from './hash.js';
import { createLedgerPanel } from './ledger.js';
import { createLossPanel } from './losscurve.js';
import { createOutputPanel } from './output.js';
import { createPlayer } from './player.js';
import { backwardAgain, zeroGrad } from './rerun.js';
import { createSharePanel } from './share.js';
import { createStepPanel } from './steppanel.js';
import { createStore } from './store.js';
import { createTimelinePanel } from './timeline.js';

const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const byTestId = (id) => $(`[data-testid="${id}"]`);

export function createApp() {
  const store = createStore();
  const player = createPlayer();
  const runButton = /** @type {HTMLButtonElement} */ (byTestId('run'));
  let ranCode = '';
  const editor = createEditor(byTestId('editor'), {
    doc: codeFromHash(location.hash) ?? '',
    onRun: run,
    onHoverLine: (line) => graph.highlightLine(line),
  });
  const graph = createGraphPanel(byTestId('graph'), { onHoverLine: (line) => editor.hoverLine(line) });
  const ledger = createLedgerPanel(byTestId('ledger'), { onSeek: (k) => player.seek(k), onRerun: rerun });
  const timeline = createTimelinePanel(byTestId('timeline'), player);
  const step = createStepPanel(byTestId('step'));
  const output = createOutputPanel({
    stdout: byTestId('stdout'),
    error: byTestId('error'),
    explain: $('#error-explain'),
    warnings: $('#warnings'),
    status: $('#run-status'),
  });
  const loss = createLossPanel($('#loss-panel'), $('#loss-chart'), $('#loss-caption'), {
    onSeek: (k) => player.seek(k),
  });
  if ($('#share')) {
    createSharePanel($('#share'), {
      getCode: () => editor.getCode(),
      graph: () => graph.snapshotSVG(),
      trace: () => ({ ...store.outputAt(store.events.length), seed: store.seed, events: store.events }),
    });
  }

  /** What the ledger's buttons would append (memoized per run: the final snapshot changes only with events). */
  let rerunFor = { final: /** @type {any} */ (null), again: /** @type {string|null} */ (null), zero: null };
  function reruns(final) {
    if (rerunFor.final !== final) {
      rerunFor = { final, again: backwardAgain(ranCode, final), zero: zeroGrad(ranCode, final) };
    }
    return rerunFor;
  }

  function render() {
    performance.mark('gradtrace:render-start');
    const k = player.position();
    const final = store.final();
    const snap = store.at(k);
    const out = store.outputAt(k);
    const done = store.status === 'done';
    const can = done ? reruns(final) : { again: null, zero: null };
    graph.render(final, snap, { ended: done && k >= store.events.length });
    ledger.render(final, snap, store.events, { again: Boolean(can.again), zero: Boolean(can.zero) });
    timeline.render(snap, store.events);
    step.render(snap);
    output.render(out);
    loss.render(final, snap);
    // The error's line once the run is over, else the line of the current step.
    const errorLine = k >= store.events.length ? out.error?.line : null;
    const line = errorLine || snap.event?.line;
    editor.mark(line ? { line, kind: errorLine ? 'error' : 'step' } : null);
    runButton.classList.toggle('running', store.status === 'running');
    output.setStatus(store.status, store.events.length, store.seed);
    performance.measure('gradtrace:render', 'gradtrace:render-start'); // all panels (benchmarks/graph_render.py)
  }
  player.onChange(render);

  /** @param {'again'|'zero'} what */
  function rerun(what) {
    const code = reruns(store.final())[what];
    if (!code) return;
    editor.setCode(code);
    run();
  }

  /** @type {AbortController|null} */
  let inflight = null;

  async function run() {
    inflight?.abort();
    const controller = new AbortController();
    inflight = controller;
    const code = editor.getCode();
    ranCode = code;
    history.replaceState(null, '', hashWithCode(location.hash, code));
    store.start();
    player.pause();
    player.setLength(0);
    graph.clear();
    loss.clear();
    graphFirst();
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
    render();
    graphFirst();
  }

  /** At phone width the panels stack: after Run the graph comes first (the code is one scroll up). */
  function graphFirst() {
    if (typeof matchMedia === 'function' && matchMedia('(max-width: 860px)').matches) {
      byTestId('graph').closest('section')?.scrollIntoView({ block: 'start' });
    }
  }

  runButton.addEventListener('click', run);

  window.addEventListener('hashchange', () => {
    const code = codeFromHash(location.hash);
    if (code !== null && code !== editor.getCode()) editor.setCode(code);
  });

  const menu = /** @type {HTMLSelectElement|null} */ (document.querySelector('#examples'));
  if (menu) {
    createExamplesMenu(menu, {
      load: fetchExamples,
      onPick: (code) => {
        editor.setCode(code);
        history.replaceState(null, '', hashWithCode(location.hash, code));
      },
    }).then((examples) => {
      if (!editor.getCode() && examples.length) editor.setCode(examples[0].code);
    });
  }

  render();
  return { run, editor };
}
