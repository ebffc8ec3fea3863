import { expect, it } from 'vitest';
import { parseTrace } from '../src/tracefile.js';

it('reads a recorded trace and refuses what is not one', () => {
  const t = parseTrace(
    '{"code":"print(1)\\n","stdout":"1\\n","error":null,"seed":3,"events":[{"seq":0,"type":"print","line":1}]}',
  );
  expect(t).toEqual({
    code: 'print(1)\n',
    stdout: '1\n',
    error: null,
    seed: 3,
    events: [{ seq: 0, type: 'print', line: 1 }],
  });
  expect(() => parseTrace('{"stdout": ""}')).toThrow(/no "events" list/);
  expect(() => parseTrace('{"events": [{"seq": 0}]}')).toThrow(/no "type"/);
  expect(() => parseTrace('not json')).toThrow();
});
