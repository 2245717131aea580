import sys,re,collections
for fn in sys.argv[1:]:
    rows=collections.defaultdict(list); rss=collections.defaultdict(list); wall=collections.defaultdict(list); loads=[]
    rounds=[]; cur={}
    for l in open(fn):
        m=re.match(r'(\S+) ([\d.]+) s wall ([\d.]+) u ([\d.]+) s (\d+) KB',l)
        if m:
            k=m.group(1); cpu=float(m.group(3))+float(m.group(4))
            rows[k].append(cpu); rss[k].append(int(m.group(5))//1024); wall[k].append(float(m.group(2))); cur[k]=cpu
        elif l.startswith('load'):
            loads.append(float(l.split()[1])); rounds.append(cur); cur={}
    print(fn, 'load %.1f-%.1f'%(min(loads),max(loads)))
    for k in rows:
        print('  %-18s CPU %.2f-%.2f (median %.2f) RSS %d-%d MB wall %.2f-%.2f'%(k,min(rows[k]),max(rows[k]),sorted(rows[k])[len(rows[k])//2],min(rss[k]),max(rss[k]),min(wall[k]),max(wall[k])))
    for k in rows:
        if k=='gotest': continue
        r=[x[k]/x['gotest'] for x in rounds if k in x and 'gotest' in x]
        print('  ratio %-18s %.2f-%.2f  %s'%(k,min(r),max(r),' '.join('%.2f'%v for v in r)))
