import { defineListingOracleSuite } from './listing-oracle.case';

defineListingOracleSuite('dynalite');
