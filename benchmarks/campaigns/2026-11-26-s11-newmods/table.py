import json,sys,collections,glob,os
idx=[l.split() for l in open('/tmp/newmods-tmp/run2/index') if l.strip()]
# reruns of unknowns with 30s
rer={}
for d in glob.glob('/tmp/newmods-tmp/run3*/'):
    if not os.path.exists(d+'index'): continue
    for l in open(d+'index'):
        mod,rel,p=l.split()
        try: r=json.load(open(p))
        except Exception: continue
        for x in r.get('results') or [r]:
            rer[(mod,rel,x.get('entry'))]=x
rows=collections.OrderedDict()
reasons=collections.Counter()
for mod,rel,p in idx:
    c=rows.setdefault(mod,collections.Counter()); c['pk']+=1
    try: r=json.load(open(p))
    except Exception:
        err=open(p[:-5]+'.err').read().strip().splitlines()
        if err and err[-1].startswith('unsupported: '):
            c['tests']+=1; c['notchk']+=1; reasons[(mod,err[-1].split(' at ')[0])]+=1
        elif err and 'has no main function and no tests' in err[-1]: pass
        else: c['loadfail']+=1; print('LOADFAIL',mod,rel,err[-1:] )
        continue
    res=r.get('results') or [dict(r, entry=(r.get('trace') or {}).get('entry'))]
    for x in res:
        c['tests']+=1
        if x.get('problem'):
            c['notchk']+=1; reasons[(mod,x['problem'].split(' at ')[0])]+=1
        elif x['verdict']=='error': c['error']+=1
        elif x['verdict']=='no-error': c['noerr']+=1
        else:
            c['unknown']+=1
            y=rer.get((mod,rel,x.get('entry')))
            if y is not None:
                c['rerun']+=1
                c['re_'+('notchk' if y.get('problem') else y['verdict'])]+=1
tot=collections.Counter()
print('| module | tests | error | no-error | unknown | not checked | checked % | unknowns re-run at 30 s → no-error / error / unknown |')
print('|---|---:|---:|---:|---:|---:|---:|---|')
for mod,c in rows.items():
    tot.update(c)
    rr = '%d → %d / %d / %d' % (c['rerun'], c['re_no-error'], c['re_error'], c['re_unknown']) if c['rerun'] else '—'
    pct = 100.0*(c['tests']-c['notchk'])/c['tests'] if c['tests'] else 0
    print('| %s | %d | %d | %d | %d | %d | %.0f | %s |' % (mod, c['tests'], c['error'], c['noerr'], c['unknown'], c['notchk'], pct, rr))
print('| total | %d | %d | %d | %d | %d | %.1f | %d → %d / %d / %d |' % (tot['tests'],tot['error'],tot['noerr'],tot['unknown'],tot['notchk'],100.0*(tot['tests']-tot['notchk'])/tot['tests'],tot['rerun'],tot['re_no-error'],tot['re_error'],tot['re_unknown']))
for (mod,why),n in reasons.items(): print('not checked', n, mod, why)
