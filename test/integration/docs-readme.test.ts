import { docCommandsSuite, docLinksSuite } from '../helpers/doc-commands-suite.ts';

// README.md's commands, run and held to the output it shows; and no dead links in the docs.
docCommandsSuite('README.md');
docLinksSuite();
