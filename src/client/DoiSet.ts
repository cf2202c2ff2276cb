export { DoiSet } from '../record/DoiSet.js';
