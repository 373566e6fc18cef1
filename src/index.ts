/** The library face of order-importer (the CLI is `order-importer`). */
export { startSandbox, buildSandbox } from '../sandbox/server.js';
export type { RunningSandbox, SandboxDeps } from '../sandbox/server.js';
export type { SandboxOptions, SandboxOptionsInput } from '../sandbox/options.js';
export { ProductsFileError, type ProductSource } from '../sandbox/products.js';
export { DEMO_TOKEN, type SandboxToken } from '../sandbox/tokens.js';
export { Catalogue, loadCatalogue, type Product } from './orders/catalogue.js';
