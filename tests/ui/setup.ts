// The ui project's setup: findBy*/waitFor wait up to 5 s instead of 1 s, so
// a loaded 2-core machine running every project at once does not fail a
// test that only waits for React to render.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 5_000 });
