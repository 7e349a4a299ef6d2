import { groupRoutesSuite } from './routes.case';

groupRoutesSuite('dynalite');
