import { expect, it } from 'vitest';
import { collapseModules, moduleId } from '../src/clusters.js';

const model = {
  boxes: [
    { id: 'x', width: 80, height: 40 },
    { id: 'w', width: 80, height: 90, cluster: 'model.0' },
    { id: 'acc:w', width: 118, height: 26, below: 'w' },
    { id: 'mm', width: 80, height: 40, cluster: 'model.0' },
    { id: 'relu', width: 80, height: 40, cluster: 'model.1' },
  ],
  edges: [
    { id: 'x->mm', from: 'x', to: 'mm' },
    { id: 'w->mm', from: 'w', to: 'mm' },
    { id: 'acc:w->w', from: 'acc:w', to: 'w' },
    { id: 'mm->relu', from: 'mm', to: 'relu' },
  ],
};

it('leaves the model alone when nothing is collapsed', () => {
  expect(collapseModules(model, new Set(), String)).toEqual(model);
});

it('collapses a module to one box at least as tall as what it holds, its crossing edges rerouted, its inner ones gone', () => {
  const { boxes, edges } = collapseModules(model, new Set(['model.0']), (p) => `${p} · Linear`);
  expect(boxes.map((b) => b.id)).toEqual(['x', 'relu', moduleId('model.0')]);
  const box = boxes.find((b) => b.id === moduleId('model.0'));
  expect(box?.height).toBe(90);
  expect(box?.width).toBeGreaterThanOrEqual(230);
  expect(edges).toEqual([
    { id: 'x->mm', from: 'x', to: moduleId('model.0') },
    { id: 'mm->relu', from: moduleId('model.0'), to: 'relu' },
  ]);
});

it('draws no box for a collapsed module that has no node in this view', () => {
  const { boxes } = collapseModules(model, new Set(['model.9']), String);
  expect(boxes.map((b) => b.id)).toEqual(['x', 'w', 'acc:w', 'mm', 'relu']);
});
