import { defineItemApiSuite } from './item-api.case';

defineItemApiSuite('dynalite');
