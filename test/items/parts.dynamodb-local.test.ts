import { definePartsSuite } from './parts.case';

definePartsSuite('dynamodbLocal');
