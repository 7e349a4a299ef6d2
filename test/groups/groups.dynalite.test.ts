import { groupsSuite } from './groups.case';

groupsSuite('dynalite');
