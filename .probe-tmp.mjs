import { PGlite } from '@electric-sql/pglite';
import { pg_textsearch } from '@electric-sql/pglite-pg_textsearch';
import fs from 'node:fs';
fs.rmSync('/tmp/dbt/data3', { recursive: true, force: true });
const pg = await PGlite.create({ dataDir: '/tmp/dbt/data3', extensions: { pg_textsearch } });
await pg.exec(`create extension if not exists pg_textsearch;`);
await pg.exec(`create table c (id text primary key, search_text text, cur bool, src text)`);
await pg.exec(`create index c_bm25 on c using bm25(search_text) with (text_config='english')`);
const rows = [];
for (let i = 0; i < 3000; i++) rows.push({ id: `old${i}`, search_text: `pod crash crash crash restart`, cur: false, src: 'a' });
for (let i = 0; i < 3; i++) rows.push({ id: `cur${i}`, search_text: `the pod had a crash once lorem ipsum dolor sit amet text long`, cur: true, src: 'a' });
await pg.query(`insert into c select * from jsonb_to_recordset($1::jsonb) as x(id text, search_text text, cur bool, src text)`, [JSON.stringify(rows)]);
const q = async (label, text, params) => { try { const r = await pg.query(text, params); console.log(label, r.rows.length, JSON.stringify(r.rows.slice(0, 4))); } catch (e) { console.log(label, 'ERR', e.message); } };
await q('filter+limit', `select id, search_text <@> to_bm25query($1,'c_bm25') s from c where cur order by s asc limit 5`, ['pod crash']);
await q('filter+limit src', `select id, search_text <@> to_bm25query($1,'c_bm25') s from c where cur and src = any($2) order by s asc limit 5`, ['pod crash', ['a']]);
// after update flip
await pg.query(`update c set cur = true where id like 'old1%'`);
await pg.query(`update c set cur = false where id like 'cur%'`);
await q('after flip', `select count(*) from (select id, search_text <@> to_bm25query($1,'c_bm25') s from c where cur order by s asc limit 2000) x`, ['pod crash']);
await q('summ', `select bm25_summarize_index('c_bm25')`, []);
// partial index test
await pg.exec(`create index c_bm25p on c using bm25(search_text) with (text_config='english') where cur`);
await q('partial explain', `explain select id, search_text <@> to_bm25query($1,'c_bm25p') s from c where cur order by s asc limit 5`, ['pod crash']);
await q('partial', `select id, search_text <@> to_bm25query($1,'c_bm25p') s from c where cur order by s asc limit 5`, ['pod crash']);
await pg.close();
