import './read-worker/index.js';
