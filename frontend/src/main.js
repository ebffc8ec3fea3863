// The playground page: everything is wired in app.js (shared with the compact /embed page).

import { createApp } from './app.js';

createApp();
