"""Digit glyphs as screens draw them, for the glyph shape model (models/shapes.bin).

Each sample: a digit rendered from one of the system's fonts (or built from the
seven-segment table), drawn in a screen style (plain, bolder, thinner, hollow outline,
through a dot-matrix screen, cut as a stencil), shrunk to 6-90 px high with anti-aliasing
(sometimes blurred, its grey levels bent by a gamma, its contrast lowered), then
prepared exactly as src/vision/digits/shapes.rs prepares a glyph's ink (`prep`).

The fonts of the third and fourth typeface hold-outs (fixtures/typefaces/holdout3:
Roboto, JetBrains Mono, Fira Code, Cantarell, Noto Serif, DSEG14 Classic; holdout4:
Open Sans, Quicksand, Manrope, League Spartan, Andika, Carlito, Oxygen, mononoki,
Fantasque Sans Mono, Hermit) are never used.

    glyphs.py OUT.npz SEED COUNT      writes COUNT samples (X: features, Y: digits)
"""
import numpy as np, sys, random, subprocess
from PIL import Image, ImageDraw, ImageFont, ImageFilter
from scipy import ndimage as ndi

HOLDOUT3 = ['roboto','jetbrains','cantarell','fira','notoserif','dseg14classic',
            'opensans','quicksand','manrope','leaguespartan','andika','carlito','oxygen',
            'mononoki','fantasque','hermit']
def font_files():
    """The system's font files with Latin digits, the hold-out's left out."""
    out = subprocess.run(['fc-list','--format','%{file}\n'],capture_output=True,text=True).stdout.split()
    keep=[]
    for f in sorted(set(out)):
        n=f.lower().replace('-','').replace('_','')
        if not (f.endswith('.ttf') or f.endswith('.otf')): continue
        if any(h in n for h in HOLDOUT3): continue
        if any(x in n for x in ['symbol','math','d050000l','z003','cjk','emoji','dsegweather']): continue
        if 'noto' in n and not any(x in n for x in ['notosans-','notosansmono','notosansdisplay','notosans[','notokufi','notonaskh','notoserifdisplay']): continue
        keep.append(f)
    return keep

def render(font_path, d, H=80):
    try: f = ImageFont.truetype(font_path, H)
    except Exception: return None
    im = Image.new('L', (H*2, H*2), 0)
    ImageDraw.Draw(im).text((H//2, H//4), str(d), fill=255, font=f)
    a = np.asarray(im)
    ys, xs = np.nonzero(a > 60)
    if len(ys) == 0: return None
    a = a[ys.min():ys.max()+1, xs.min():xs.max()+1]
    return np.pad(a, 12).astype(np.float32)/255

def good_font(fp):
    gl=[render(fp,d) for d in range(10)]
    if any(g is None for g in gl): return False
    shapes=set((g.shape, round(float(g.sum()),1)) for g in gl)
    return len(shapes)>=9

SEG = {0:'abcdef',1:'bc',2:'abged',3:'abgcd',4:'fgbc',5:'afgcd',6:'afgedc',7:'abc',8:'abcdefg',9:'abcdfg'}
def seg7(d, rng):
    """Digit `d` built from the seven-segment table: bars of random thickness, gaps
    at the corners, sometimes slanted; 6, 7 and 9 with or without their tails."""
    H=80; W=int(H*rng.uniform(0.45,0.62)); t=max(3,int(H*rng.uniform(0.06,0.16))); gap=int(rng.uniform(0,0.04)*H)
    a=np.zeros((H+24,W+24),np.float32); o=12
    segs=SEG[d]
    if d==7 and rng.random()<0.4: segs+='f'
    if d==6 and rng.random()<0.3: segs=segs.replace('a','')
    if d==9 and rng.random()<0.3: segs=segs.replace('d','')
    m=H//2
    def hbar(y): a[o+y:o+y+t, o+t//2+gap:o+W-t//2-gap]=1
    def vbar(x,y0,y1): a[o+y0+gap:o+y1-gap, o+x:o+x+t]=1
    for s in segs:
        if s=='a': hbar(0)
        if s=='g': hbar(m-t//2)
        if s=='d': hbar(H-t)
        if s=='f': vbar(0,t//2,m)
        if s=='b': vbar(W-t,t//2,m)
        if s=='e': vbar(0,m,H-t//2)
        if s=='c': vbar(W-t,m,H-t//2)
    if rng.random()<0.5:  # slant
        sh=rng.uniform(0,0.15)
        a=ndi.affine_transform(a,[[1,0],[sh,1]],offset=[0,-sh*a.shape[0]*0.5],order=1)
    if d==1 and rng.random()<0.5:
        pass
    return a

def disk(r):
    y,x=np.ogrid[-r:r+1,-r:r+1]; return x*x+y*y<=r*r

def style(a, s, rng):
    """The glyph coverage `a` (80 px high) drawn in screen style `s`."""
    H=a.shape[0]
    m = a > 0.5
    if s=='plain': return a
    if s=='bold': return ndi.binary_dilation(m, disk(int(rng.uniform(1,4)))).astype(np.float32)
    if s=='thin':
        sk=ndi.binary_erosion(m, disk(int(rng.uniform(1,4))))
        return (sk if sk.sum()>50 else m).astype(np.float32)
    if s=='outline':
        b = ndi.binary_dilation(m, disk(int(rng.uniform(0,4)))) if rng.random()<0.7 else m
        w = int(rng.uniform(1.5,5))
        inner = ndi.binary_erosion(b, disk(w))
        return (b & ~inner).astype(np.float32)
    if s=='dots':
        p = rng.uniform(5,10); r = p*rng.uniform(0.3,0.48)
        yy,xx=np.mgrid[0:a.shape[0],0:a.shape[1]]
        ox,oy=rng.uniform(0,p),rng.uniform(0,p)
        dx=((xx+ox)%p)-p/2; dy=((yy+oy)%p)-p/2
        holes = dx*dx+dy*dy <= r*r
        b = ndi.binary_dilation(m, disk(int(rng.uniform(0,4)))) if rng.random()<0.7 else m
        return (b & holes).astype(np.float32)
    if s=='stencil':
        out=m.copy(); ys,xs=np.nonzero(m)
        for _ in range(rng.randint(1,3)):
            if rng.random()<0.5:
                y=rng.randint(ys.min(),ys.max()); out[y:y+rng.randint(2,5),:]=False
            else:
                x=rng.randint(xs.min(),xs.max()); out[:,x:x+rng.randint(2,5)]=False
        return out.astype(np.float32)
    return a

def shrink(a, h, rng):
    # to a glyph h px high, antialiased (as drawn at that size), maybe blurred
    H=a.shape[0]; s=h/H
    im=Image.fromarray((a*255).astype(np.uint8))
    w=max(1,round(a.shape[1]*s)); hh=max(1,round(H*s))
    im=im.resize((w,hh),Image.BOX)
    if rng.random()<0.2: im=im.filter(ImageFilter.GaussianBlur(rng.uniform(0.3,0.7)))
    b=np.asarray(im).astype(np.float32)
    if rng.random()<0.4:
        g=rng.uniform(0.5,1.6); b=255*np.power(b/255,g)
    if rng.random()<0.3: b=b*rng.uniform(0.35,1.0)
    return b

SIDE=28; BOX=20
def weights(n_in, n_out):
    # area weights: out k covers [k*n_in/n_out, (k+1)*n_in/n_out) of the input, averaged
    W=np.zeros((n_out,n_in),np.float32); step=n_in/n_out
    for k in range(n_out):
        a,b=k*step,(k+1)*step
        for i in range(int(np.floor(a)), min(n_in,int(np.ceil(b)))):
            W[k,i]=max(0.0,min(b,i+1)-max(a,i))/step
    return W
def pct99(x):
    v=np.sort(x.ravel()); pos=0.99*(len(v)-1); i=int(pos); f=pos-i
    return float(v[i] if i+1>=len(v) else v[i]*(1-f)+v[i+1]*f)
def prep(ink):
    """ink: 2-D (0 bg .. any) glyph crop -> features (784 + 2)"""
    ink=np.asarray(ink,np.float32)
    if ink.size==0: return None
    mx=pct99(ink)
    if mx<=0: return None
    v=np.clip(ink/mx,0,1)
    ys,xs=np.nonzero(v>0.25)
    if len(ys)==0: return None
    v=v[ys.min():ys.max()+1, xs.min():xs.max()+1]
    h,w=v.shape; s=BOX/max(h,w)
    nw,nh=max(1,int(w*s+0.5)),max(1,int(h*s+0.5))
    r=weights(h,nh)@v@weights(w,nw).T
    out=np.zeros((SIDE,SIDE),np.float32)
    y0=(SIDE-nh)//2; x0=(SIDE-nw)//2
    out[y0:y0+nh,x0:x0+nw]=r
    return np.concatenate([out.ravel(),[w/h, v.mean()]]).astype(np.float32)

if __name__=='__main__':
    rng=random.Random(int(sys.argv[2]))
    fonts=[f for f in font_files() if good_font(f)]
    print(len(fonts),'fonts',file=sys.stderr)
    X=[];Y=[]
    styles=['plain','plain','bold','thin','outline','outline','dots','dots','stencil']
    n=int(sys.argv[3])
    for i in range(n):
        d=rng.randint(1,9)
        if rng.random()<0.12:
            a=seg7(d,rng); s=rng.choice(['plain','plain','outline','dots','thin'])
        else:
            a=render(rng.choice(fonts),d)
            if a is None: continue
            s=rng.choice(styles)
        a=style(a,s,rng)
        h=rng.choice([rng.uniform(6,14), rng.uniform(14,40), rng.uniform(40,90)])
        b=shrink(a,h,rng)
        f=prep(b)
        if f is None: continue
        X.append(f);Y.append(d)
    np.savez_compressed(sys.argv[1],X=np.array(X,np.float32),Y=np.array(Y,np.int8))
