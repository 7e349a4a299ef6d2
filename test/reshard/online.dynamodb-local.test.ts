import { onlineReshardSuite } from './online.case';

onlineReshardSuite('dynamodbLocal');
