// The page's entry: the app lives in src/render/sandbox/ with the rest of the renderer.
import '../src/render/sandbox/main.js';
