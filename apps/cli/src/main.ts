import { main } from './program.js';

await main(process.argv);
