// The panels of one widget, as the playground's modules expect them (the same data-testid hooks), built in its
// shadow root. The code is never written as HTML: the editor gets it as text.

let count = 0;

/** @param {ShadowRoot} root @param {{brandHref: string}} opts */
export function buildPanels(root, { brandHref }) {
  const n = ++count;
  const id = (name) => `gt${n}-${name}`;
  const main = document.createElement('div');
  main.className = 'layout';
  // static markup only (ids numbered per widget); nothing of the page or the code goes in here
  main.append(
    document.createRange().createContextualFragment(`
    <div class="embed-bar">
      <a class="brand-link" target="_blank" rel="noopener" title="Open in the gradtrace playground">grad<span>trace</span></a>
      <button type="button" class="run" data-testid="run" title="Run (Ctrl+Enter)">Run ▸</button>
    </div>
    <section class="panel editor-panel" aria-labelledby="${id('code')}">
      <h2 id="${id('code')}">Code <span class="hint">Ctrl+Enter runs</span></h2>
      <div class="editor" data-testid="editor"></div>
    </section>
    <section class="panel graph-panel" aria-labelledby="${id('graph')}">
      <h2 id="${id('graph')}">Autograd graph</h2>
      <ul class="legend" aria-label="legend">
        <li><span class="swatch leaf"></span>leaf</li>
        <li><span class="swatch op"></span>grad_fn</li>
        <li><span class="swatch const"></span>constant</li>
        <li><span class="swatch ran"></span>ran in this backward</li>
        <li><span class="swatch active"></span>current step</li>
        <li><span class="swatch acc"></span>AccumulateGrad</li>
        <li><span class="swatch freed"></span>freed graph</li>
      </ul>
      <div class="graph" data-testid="graph"></div>
    </section>
    <section class="panel timeline-panel" aria-label="Timeline">
      <div class="timeline" data-testid="timeline"></div>
    </section>
    <section class="panel ledger-panel" aria-labelledby="${id('ledger')}">
      <h2 id="${id('ledger')}"><code>.grad</code> ledger</h2>
      <div class="ledger" data-testid="ledger"></div>
    </section>
    <section class="panel loss-panel" id="loss-panel" aria-labelledby="${id('loss')}" hidden>
      <h2 id="${id('loss')}">Loss per <code>backward()</code> <span class="hint" id="loss-caption"></span></h2>
      <div class="loss-chart" id="loss-chart"></div>
    </section>
    <section class="panel output-panel" aria-labelledby="${id('output')}">
      <h2 id="${id('output')}">Output <span class="hint" id="run-status" role="status"></span></h2>
      <p class="notice" data-testid="notice" role="status" hidden></p>
      <div class="error" data-testid="error" role="alert" hidden></div>
      <p class="error-explain" id="error-explain" hidden></p>
      <ul class="warnings" id="warnings" hidden></ul>
      <pre class="stdout" data-testid="stdout"></pre>
    </section>`),
  );
  /** @type {HTMLAnchorElement} */ (main.querySelector('.brand-link')).href = brandHref;
  root.append(main);
  return main;
}
