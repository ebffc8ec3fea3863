// The layout Web Worker: plain boxes and edges in, positions out (layout.js), off the main thread.

import { layoutGraph } from './layout.js';

self.onmessage = (e) => {
  const { token, boxes, edges, options } = e.data;
  const started = performance.now();
  const layout = layoutGraph(boxes, edges, options);
  self.postMessage({ token, layout, ms: performance.now() - started });
};
