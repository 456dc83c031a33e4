// Hand-written microbenchmark behind experiments/h200_scpwi_sizes_constant_tables_ac48f2e.txt
// (not part of the build): P1 mass in 2D on the 1280^2 lattice, (a) one cell per thread
// with per-cell atomics and tables in constant memory, (b) "patches": a group's distinct
// DOFs gathered once into shared memory, accumulated there with shared atomics, and
// added to global memory once per distinct DOF. Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -std=c++17 p1_patch_microbench.cu -o patch && ./patch
#include <cstdio>
#include <cmath>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <unordered_map>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__); exit(1);}}while(0)
__constant__ double c_phi[9]; // 3 quad x 3 basis
__constant__ double c_w[3];
template<int WG> __global__ void __launch_bounds__(WG) base(int nc, const double* __restrict__ X, const int* __restrict__ cmap, const double* __restrict__ u, const int* __restrict__ map, double* out){
  int c = blockIdx.x*WG+threadIdx.x; if(c>=nc) return;
  double x[6]; for(int i=0;i<3;++i){int v=cmap[c*3+i]; x[2*i]=X[v]; x[2*i+1]=X[v+1];}
  double uu[3]; for(int i=0;i<3;++i) uu[i]=u[map[c*3+i]];
  double det=fabs((x[2]-x[0])*(x[5]-x[1])-(x[4]-x[0])*(x[3]-x[1]));
  double o[3]={0,0,0};
  for(int q=0;q<3;++q){ double e=0; for(int i=0;i<3;++i) e+=c_phi[q*3+i]*uu[i]; e*=det*c_w[q]; for(int i=0;i<3;++i) o[i]+=c_phi[q*3+i]*e;}
  for(int i=0;i<3;++i) atomicAdd(&out[map[c*3+i]], o[i]);
}
template<int WG> __global__ void __launch_bounds__(WG) patch(int nc, const double* __restrict__ X, const int* __restrict__ coff, const int* __restrict__ cdofs, const unsigned short* __restrict__ clocal,
   const double* __restrict__ u, const int* __restrict__ off, const int* __restrict__ dofs, const unsigned short* __restrict__ local, double* out){
  __shared__ double s_x[WG*3], s_y[WG*3], s_c[WG*3*2];
  int g=blockIdx.x, t=threadIdx.x;
  int o0=off[g], n=off[g+1]-o0, co0=coff[g], cn=coff[g+1]-co0;
  for(int j=t;j<n;j+=WG){ s_x[j]=u[dofs[o0+j]]; s_y[j]=0; }
  for(int j=t;j<cn;j+=WG){ int v=cdofs[co0+j]; s_c[2*j]=X[v]; s_c[2*j+1]=X[v+1]; }
  __syncthreads();
  int c=g*WG+t;
  if(c<nc){
    double x[6]; int L[3];
    for(int i=0;i<3;++i){int v=clocal[c*3+i]; x[2*i]=s_c[2*v]; x[2*i+1]=s_c[2*v+1];}
    double uu[3]; for(int i=0;i<3;++i){ L[i]=local[c*3+i]; uu[i]=s_x[L[i]]; }
    double det=fabs((x[2]-x[0])*(x[5]-x[1])-(x[4]-x[0])*(x[3]-x[1]));
    double o[3]={0,0,0};
    for(int q=0;q<3;++q){ double e=0; for(int i=0;i<3;++i) e+=c_phi[q*3+i]*uu[i]; e*=det*c_w[q]; for(int i=0;i<3;++i) o[i]+=c_phi[q*3+i]*e;}
    for(int i=0;i<3;++i) atomicAdd(&s_y[L[i]], o[i]);
  }
  __syncthreads();
  for(int j=t;j<n;j+=WG) atomicAdd(&out[dofs[o0+j]], s_y[j]);
}
struct Patch{ std::vector<int> off, dofs; std::vector<unsigned short> local; };
Patch make_patch(const std::vector<int>& map, int nc, int n, int WG){
  Patch p; p.off.push_back(0); p.local.resize(map.size());
  for(int g=0; g*WG<nc; ++g){ std::unordered_map<int,int> id; int c1=std::min(nc,(g+1)*WG);
    std::vector<int> u; for(int c=g*WG;c<c1;++c) for(int i=0;i<n;++i) u.push_back(map[c*n+i]);
    std::sort(u.begin(),u.end()); u.erase(std::unique(u.begin(),u.end()),u.end());
    for(size_t k=0;k<u.size();++k) id[u[k]]=k;
    for(int c=g*WG;c<c1;++c) for(int i=0;i<n;++i) p.local[c*n+i]=id[map[c*n+i]];
    p.dofs.insert(p.dofs.end(),u.begin(),u.end()); p.off.push_back(p.dofs.size()); }
  return p;
}
template<class T> T* up(const std::vector<T>& v){ T* d; CK(cudaMalloc(&d,v.size()*sizeof(T))); CK(cudaMemcpy(d,v.data(),v.size()*sizeof(T),cudaMemcpyHostToDevice)); return d;}
int main(){
  int N=1280, nv=(N+1)*(N+1), nc=2*N*N;
  std::vector<double> X(2*nv), u(nv); std::vector<int> map(3*nc), cmap(3*nc);
  for(int j=0;j<=N;++j) for(int i=0;i<=N;++i){ int v=j*(N+1)+i; X[2*v]=i/(double)N; X[2*v+1]=j/(double)N; u[v]=sin(0.37*v); }
  int c=0; for(int j=0;j<N;++j) for(int i=0;i<N;++i){ int a=j*(N+1)+i,b=a+1,d=a+N+1,e=d+1; int t[2][3]={{a,b,e},{a,e,d}}; for(int k=0;k<2;++k,++c) for(int l=0;l<3;++l){map[3*c+l]=t[k][l]; cmap[3*c+l]=2*t[k][l];}}
  double phi[9]={2/3.,1/6.,1/6.,1/6.,2/3.,1/6.,1/6.,1/6.,2/3.}, w[3]={1/6.,1/6.,1/6.};
  CK(cudaMemcpyToSymbol(c_phi,phi,sizeof phi)); CK(cudaMemcpyToSymbol(c_w,w,sizeof w));
  double *dX=up(X),*du=up(u); int *dmap=up(map),*dcmap=up(cmap); double* dout; CK(cudaMalloc(&dout,nv*8));
  cudaEvent_t e0,e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<double> ref(nv), got(nv);
  auto time=[&](auto launch, const char* name, bool isref){
    for(int r=0;r<5;++r) launch();
    std::vector<float> ts; for(int r=0;r<200;++r){ cudaEventRecord(e0); launch(); cudaEventRecord(e1); cudaEventSynchronize(e1); float ms; cudaEventElapsedTime(&ms,e0,e1); ts.push_back(ms);}
    std::sort(ts.begin(),ts.end());
    CK(cudaMemset(dout,0,nv*8)); launch(); CK(cudaDeviceSynchronize()); CK(cudaMemcpy((isref?ref:got).data(),dout,nv*8,cudaMemcpyDeviceToHost));
    double err=0,nr=0; if(!isref) for(int i=0;i<nv;++i){err=std::max(err,fabs(got[i]-ref[i])); nr=std::max(nr,fabs(ref[i]));}
    printf("%-24s median %.4f ms  %.1f GDoF/s  relerr %.2e\n",name,ts[ts.size()/2],nv/ts[ts.size()/2]/1e6, isref?0:err/nr);
  };
  time([&]{ base<32><<<(nc+31)/32,32>>>(nc,dX,dcmap,du,dmap,dout);},"base wg32",true);
  time([&]{ base<128><<<(nc+127)/128,128>>>(nc,dX,dcmap,du,dmap,dout);},"base wg128",false);
  time([&]{ base<256><<<(nc+255)/256,256>>>(nc,dX,dcmap,du,dmap,dout);},"base wg256",false);
#define PT(WG) { Patch p=make_patch(map,nc,3,WG), q=make_patch(cmap,nc,3,WG); int *o=up(p.off),*d=up(p.dofs),*co=up(q.off),*cd=up(q.dofs); unsigned short *l=up(p.local),*cl=up(q.local); \
   printf("WG %d: unique dofs per cell %.3f\n",WG,p.dofs.size()/(double)nc); \
   time([&]{ patch<WG><<<(nc+WG-1)/WG,WG>>>(nc,dX,co,cd,cl,du,o,d,l,dout);},"patch wg" #WG,false); }
  PT(64) PT(128) PT(256) PT(512)
  return 0;
}
