import { defineValuesSuite } from './values.case';

defineValuesSuite('dynalite');
