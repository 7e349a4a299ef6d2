import { reshardCliSuite } from './cli.case';

reshardCliSuite('dynalite');
