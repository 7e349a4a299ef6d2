import { groupReshardSuite } from './reshard.case';

groupReshardSuite('dynalite');
