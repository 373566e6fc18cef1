import { Catalogue } from '../../src/orders/catalogue.js';

/** A small catalogue with one product of every category that makes a field required. */
export const testCatalogue = new Catalogue([
  { id: 'EPC', name: 'EPC', category: '3.1' },
  { id: 'ELEC-1.1', name: 'Electrical inspection', category: '1.1' },
  { id: 'ELEC-1.2', name: 'Electrical re-inspection', category: '1.2' },
  { id: 'ELEC-2.1', name: 'Electrical common parts', category: '2.1' },
  { id: 'ASB-UNITS', name: 'Asbestos per unit', category: '2.3' },
  { id: 'ASB-FLOORS', name: 'Asbestos per floor', category: '2.4' },
]);
