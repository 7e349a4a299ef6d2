import { onlineReshardSuite } from './online.case';

onlineReshardSuite('dynalite');
