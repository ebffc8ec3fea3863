// The playground page: everything is wired in app.js (shared with the compact /embed page); a trace file opened
// with the button or dropped on the page replays with no server (tracefile.js).

import './style.css';
import { createApp } from './app.js';
import { createTraceOpener } from './tracefile.js';

const app = createApp();
createTraceOpener(/** @type {HTMLElement} */ (document.querySelector('#open-trace')), {
  onTrace: (trace, name) => app.replay(trace, `Replaying ${name}: a recorded run, no server needed.`),
  onError: (message) => app.say(message),
});
