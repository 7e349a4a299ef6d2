import { definePartsSuite } from './parts.case';

definePartsSuite('dynalite');
