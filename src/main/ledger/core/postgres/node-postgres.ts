// node-postgres, imported from here only (types stay `import type ... from 'pg'`): see ./node-navigator for why the
// import below comes first.
import { returnNavigator } from './node-navigator';
import pg from 'pg';

returnNavigator();
export default pg;
