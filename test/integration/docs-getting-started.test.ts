import { docCommandsSuite } from '../helpers/doc-commands-suite.ts';

// docs/getting-started.md's commands, run in a scratch copy and held to the output it shows.
docCommandsSuite('docs/getting-started.md');
