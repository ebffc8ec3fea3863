// Wiring only: find the panels of the page (playground or embed), connect them to the store, the player and the
// API. Logic lives in the modules; a panel the page doesn't have is simply not created.

import { fetchExamples, runCode } from './api.js';
import { keepEditInMenu, loadDraft, saveDraft } from './drafts.js';
import { createEditor } from './editor.js';
import { createExamplesMenu } from './examples.js';
import { createGraphPanel } from './graph.js';
import { hashWithCode } from './hash.js';
import { createLedgerPanel } from './ledger.js';
import { applyHide, drawsRandom, readLink, writeLink } from './linkstate.js';
import { createLossPanel } from './losscurve.js';
import { createOutputPanel } from './output.js';
import { createPlayer } from './player.js';
import { backwardAgain, zeroGrad } from './rerun.js';
import { createSharePanel } from './share.js';
import { createStepPanel } from './steppanel.js';
import { createStore } from './store.js';
import { createTimelinePanel } from './timeline.js';

/**
 * @param {{root?: Document|ShadowRoot, page?: boolean, code?: string, seed?: number|null, readOnly?: boolean,
 *   fallback?: import('./tracefile.js').Trace|null}} [opts]
 *   root: where the panels are (a widget's shadow root); page: the URL hash holds the state (the playground and
 *   /embed; a widget keeps its own, from `code` and `seed`); fallback: a recorded trace to show when the server
 *   can't be reached.
 */
export function createApp({
  root = document,
  page = true,
  code = '',
  seed = null,
  readOnly = false,
  fallback = null,
} = {}) {
  const $ = (sel) => /** @type {HTMLElement} */ (root.querySelector(sel));
  const byTestId = (id) => $(`[data-testid="${id}"]`);
  const link = page ? readLink(location.hash) : { code, seed, step: null, hide: [], autorun: false };
  const runSeed = link.seed;
  let openStep = link.step; // the step a link opens on, once its first run is over
  if (page) applyHide(root, link.hide);
  const store = createStore();
  const player = createPlayer();
  const runButton = /** @type {HTMLButtonElement} */ (byTestId('run'));
  const notice = /** @type {HTMLElement|null} */ ($('[data-testid="notice"]'));
  const say = (text) => {
    if (!notice) return;
    notice.textContent = text;
    notice.hidden = !text;
  };
  let ranCode = '';
  /** Edits live in the hash and in local storage as they are typed, so a reload keeps them. */
  const keepEdit = () => {
    const now = editor.getCode();
    history.replaceState(null, '', writeLink(location.hash, { code: now }));
    saveDraft(now);
  };
  const editor = createEditor(byTestId('editor'), {
    doc: page ? (link.code ?? loadDraft() ?? '') : code,
    root: root instanceof ShadowRoot ? root : undefined,
    readOnly,
    onRun: run,
    onChange: page ? keepEdit : undefined,
    onHoverLine: (line) => graph.highlightLine(line),
  });
  const graph = createGraphPanel(byTestId('graph'), { onHoverLine: (line) => editor.hoverLine(line) });
  const ledger = createLedgerPanel(byTestId('ledger'), { onSeek: (k) => player.seek(k), onRerun: rerun });
  const timeline = createTimelinePanel(byTestId('timeline'), player, { keys: root });
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
  const stepRoot = byTestId('step');
  const step = stepRoot ? createStepPanel(stepRoot) : null;
  if ($('#share')) {
    createSharePanel($('#share'), {
      getCode: () => editor.getCode(),
      graph: () => graph.snapshotSVG(),
      trace: () => ({ ...store.outputAt(store.events.length), seed: store.seed, events: store.events }),
      state: () => ({
        seed: drawsRandom(editor.getCode()) ? (store.seed ?? runSeed) : runSeed,
        step: player.position() < store.events.length ? player.position() : null,
        hide: link.hide,
      }),
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
    step?.render(snap);
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

  /** Show the end of a run (or the step a link asked for). */
  function settle() {
    player.setLength(store.events.length);
    const step = openStep !== null ? Math.min(openStep, store.events.length) : store.events.length;
    openStep = null;
    player.seek(step); // a finished run opens on its last step: the whole ledger, all of stdout
    render();
    graphFirst();
  }

  /** At phone width the panels stack: after Run the graph comes first (the code is one scroll up). */
  function graphFirst() {
    if (page && typeof matchMedia === 'function' && matchMedia('(max-width: 860px)').matches) {
      byTestId('graph').closest('section')?.scrollIntoView({ block: 'start' });
    }
  }

  /**
   * Replay a recorded trace (no server): its events, then its stdout and error.
   * @param {import('./tracefile.js').Trace} trace
   * @param {string} [note] what the notice line says about it
   */
  function replay(trace, note = '') {
    inflight?.abort();
    inflight = null;
    if (trace.code && trace.code !== editor.getCode()) editor.setCode(trace.code);
    ranCode = trace.code || editor.getCode();
    store.start();
    player.pause();
    graph.clear();
    loss.clear();
    for (const e of trace.events) store.push(e);
    store.finish({ stdout: trace.stdout, error: trace.error, seed: trace.seed });
    say(note);
    settle();
  }

  async function run() {
    inflight?.abort();
    const controller = new AbortController();
    inflight = controller;
    const code = editor.getCode();
    ranCode = code;
    if (page) history.replaceState(null, '', hashWithCode(location.hash, code));
    say('');
    store.start();
    player.pause();
    player.setLength(0);
    graph.clear();
    loss.clear();
    graphFirst();
    try {
      const end = await runCode(code, {
        seed: runSeed,
        signal: controller.signal,
        onEvent: (e) => {
          if (inflight !== controller) return; // a newer run took over
          store.push(e);
          player.setLength(store.events.length, { follow: true, live: true });
        },
      });
      if (inflight === controller) player.setLength(store.events.length, { follow: true });
      if (inflight !== controller) return;
      store.finish(end);
    } catch (err) {
      if (controller.signal.aborted) return;
      if (/** @type {Error} */ (err).name === 'ServerUnreachable' && fallback) {
        replay(fallback, `${/** @type {Error} */ (err).message} Showing the run recorded with this page.`);
        return;
      }
      store.fail(/** @type {Error} */ (err));
    }
    settle();
  }

  runButton.addEventListener('click', run);

  if (page) {
    window.addEventListener('hashchange', () => {
      const code = readLink(location.hash).code;
      if (code !== null && code !== editor.getCode()) editor.setCode(code);
    });
  }

  const menu = /** @type {HTMLSelectElement|null} */ (root.querySelector('#examples'));
  if (menu) {
    /** @type {{code: string}[]} */
    let known = [];
    createExamplesMenu(menu, {
      load: fetchExamples,
      onPick: (code) => {
        const edited = editor.getCode();
        // An edit that is no example's code stays one click away: "Your edited code" in the same menu.
        if (edited.trim() && !known.some((ex) => ex.code === edited)) {
          keepEditInMenu(menu, edited, (back) => {
            editor.setCode(back);
            history.replaceState(null, '', hashWithCode(location.hash, back));
          });
          say('Your edited code is kept: pick “Your edited code” in Examples to get it back.');
        }
        editor.setCode(code);
        history.replaceState(null, '', hashWithCode(location.hash, code));
      },
    }).then((examples) => {
      known = examples;
      if (!editor.getCode() && examples.length) editor.setCode(examples[0].code);
    });
  }

  render();
  if (link.autorun && editor.getCode()) run();
  return { run, replay, editor, store, player, say };
}
