// Hand-written microbenchmark behind experiments/h200_warp_scatter_p1.txt (not part of
// the build; nvcc -O3 -arch=sm_90 -std=c++17): a P1 mass-like action on the paper's
// structured meshes with plain atomics, warp aggregation matched on the 32-bit index
// (k_match) or the 64-bit address (k_match64), a per-block shared-memory hash table
// (k_hash; the first call timed it at 64-512 threads, this version no longer launches
// it), and in 3D 16-byte vector loads of the map rows (k_plain_v4, the third call; the
// first two calls also ran the 2D scalar case, run<2,1>(1280)).
#include <cstdio>
#include <vector>
#include <algorithm>
#include <array>
#include <cmath>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e!=cudaSuccess){printf("CUDA %s at %d\n",cudaGetErrorString(e),__LINE__); exit(1);} }while(0)

std::vector<int> cells_of(int dim, int N){
  auto vid=[&](long i,long j,long k){return (int)((k*(N+1)+j)*(N+1)+i);};
  std::vector<int> c; int nz = dim==3?N:1;
  for(int k=0;k<nz;++k)for(int j=0;j<N;++j)for(int i=0;i<N;++i){
    if(dim==2){int a=vid(i,j,0),b=vid(i+1,j,0),cc=vid(i,j+1,0),d=vid(i+1,j+1,0); int t[6]={a,b,d,a,d,cc}; c.insert(c.end(),t,t+6); continue;}
    std::array<int,3> p{0,1,2};
    do{ std::array<long,3> at{i,j,k}; std::array<int,4> t; t[0]=vid(at[0],at[1],at[2]);
      for(int s=0;s<3;++s){at[p[s]]+=1; t[s+1]=vid(at[0],at[1],at[2]);}
      int inv=(p[0]>p[1])+(p[0]>p[2])+(p[1]>p[2]); if(inv%2==0) std::swap(t[1],t[2]);
      c.insert(c.end(),t.begin(),t.end());}while(std::next_permutation(p.begin(),p.end()));
  }
  return c;
}

template<int D,int C> __device__ void cell_work(int cell,const int* __restrict__ map,const int* __restrict__ cmap,const double* __restrict__ X,const double* __restrict__ u,int* dof,double* out){
  constexpr int V=D+1;
  double x[V][D];
  for(int v=0;v<V;++v){int cv=cmap[cell*V+v]; for(int d=0;d<D;++d) x[v][d]=X[cv+d];}
  double J[D][D]; for(int a=0;a<D;++a)for(int b=0;b<D;++b) J[a][b]=x[b+1][a]-x[0][a];
  double det = D==2? J[0][0]*J[1][1]-J[0][1]*J[1][0] : J[0][0]*(J[1][1]*J[2][2]-J[1][2]*J[2][1])-J[0][1]*(J[1][0]*J[2][2]-J[1][2]*J[2][0])+J[0][2]*(J[1][0]*J[2][1]-J[1][1]*J[2][0]);
  det=fabs(det);
  double uu[V*C];
  for(int i=0;i<V*C;++i){dof[i]=map[cell*V*C+i]; uu[i]=u[dof[i]];}
  const double diag = D==2? 1.0/12:1.0/60, off = D==2?1.0/24:1.0/120;
  for(int c=0;c<C;++c){ double s=0; for(int j=0;j<V;++j) s+=uu[j*C+c];
    for(int i=0;i<V;++i) out[i*C+c]=det*(off*s+(diag-off)*uu[i*C+c]); }
}

template<int D,int C> __device__ void cell_work_v4(int cell,const int* __restrict__ map,const int* __restrict__ cmap,const double* __restrict__ X,const double* __restrict__ u,int* dof,double* out){
  constexpr int V=D+1;
  static_assert(V==4,"3D only");
  double x[V][D];
  const int4 cv=reinterpret_cast<const int4*>(cmap)[cell];
  const int cvs[4]={cv.x,cv.y,cv.z,cv.w};
  for(int v=0;v<V;++v){for(int d=0;d<D;++d) x[v][d]=X[cvs[v]+d];}
  double J[D][D]; for(int a=0;a<D;++a)for(int b=0;b<D;++b) J[a][b]=x[b+1][a]-x[0][a];
  double det = J[0][0]*(J[1][1]*J[2][2]-J[1][2]*J[2][1])-J[0][1]*(J[1][0]*J[2][2]-J[1][2]*J[2][0])+J[0][2]*(J[1][0]*J[2][1]-J[1][1]*J[2][0]);
  det=fabs(det);
  double uu[V*C];
  #pragma unroll
  for(int q=0;q<C;++q){const int4 m=reinterpret_cast<const int4*>(map)[cell*C+q]; dof[4*q]=m.x; dof[4*q+1]=m.y; dof[4*q+2]=m.z; dof[4*q+3]=m.w;}
  for(int i=0;i<V*C;++i) uu[i]=u[dof[i]];
  const double diag = 1.0/60, off = 1.0/120;
  for(int c=0;c<C;++c){ double s=0; for(int j=0;j<V;++j) s+=uu[j*C+c];
    for(int i=0;i<V;++i) out[i*C+c]=det*(off*s+(diag-off)*uu[i*C+c]); }
}
template<int D,int C> __global__ void k_plain_v4(int n,const int*map,const int*cmap,const double*X,const double*u,double*y){
  int cell=blockIdx.x*blockDim.x+threadIdx.x; if(cell>=n) return;
  int dof[(D+1)*C]; double out[(D+1)*C]; cell_work_v4<D,C>(cell,map,cmap,X,u,dof,out);
  #pragma unroll
  for(int i=0;i<(D+1)*C;++i) if(dof[i]>=0) atomicAdd(&y[dof[i]],out[i]);
}
template<int D,int C> __global__ void k_plain_ldg(int n,const int*map,const int*cmap,const double*X,const double*u,double*y){
  // the same as k_plain, every map and value read through __ldg
  int cell=blockIdx.x*blockDim.x+threadIdx.x; if(cell>=n) return;
  int dof[(D+1)*C]; double out[(D+1)*C]; cell_work<D,C>(cell,map,cmap,X,u,dof,out);
  #pragma unroll
  for(int i=0;i<(D+1)*C;++i) if(dof[i]>=0) atomicAdd(&y[dof[i]],out[i]);
}
template<int D,int C> __global__ void k_plain(int n,const int*map,const int*cmap,const double*X,const double*u,double*y){
  int cell=blockIdx.x*blockDim.x+threadIdx.x; if(cell>=n) return;
  int dof[(D+1)*C]; double out[(D+1)*C]; cell_work<D,C>(cell,map,cmap,X,u,dof,out);
  #pragma unroll
  for(int i=0;i<(D+1)*C;++i) if(dof[i]>=0) atomicAdd(&y[dof[i]],out[i]);
}
__device__ __forceinline__ unsigned lane_id(){unsigned l; asm("mov.u32 %0, %%laneid;":"=r"(l)); return l;}
template<int D,int C> __global__ void k_match(int n,const int*map,const int*cmap,const double*X,const double*u,double*y){
  int cell=blockIdx.x*blockDim.x+threadIdx.x; if(cell>=n) return;
  int dof[(D+1)*C]; double out[(D+1)*C]; cell_work<D,C>(cell,map,cmap,X,u,dof,out);
  unsigned act=__activemask(), lane=lane_id();
  #pragma unroll
  for(int i=0;i<(D+1)*C;++i){
    unsigned peers=__match_any_sync(act,dof[i]);
    unsigned rest=peers&~(1u<<lane); double s=out[i];
    while(__any_sync(act,rest!=0)){int src=rest?__ffs(rest)-1:lane; double o=__shfl_sync(act,out[i],src); if(rest){s+=o; rest&=rest-1;}}
    if(dof[i]>=0 && (__ffs(peers)-1)==(int)lane) atomicAdd(&y[dof[i]],s);
  }
}
template<int D,int C> __global__ void k_match64(int n,const int*map,const int*cmap,const double*X,const double*u,double*y){
  int cell=blockIdx.x*blockDim.x+threadIdx.x; if(cell>=n) return;
  int dof[(D+1)*C]; double out[(D+1)*C]; cell_work<D,C>(cell,map,cmap,X,u,dof,out);
  unsigned lane=lane_id();
  #pragma unroll
  for(int i=0;i<(D+1)*C;++i){ if(dof[i]<0) continue;
    double* a=&y[dof[i]]; unsigned act=__activemask();
    unsigned peers=__match_any_sync(act,(unsigned long long)a);
    unsigned rest=peers&~(1u<<lane); double s=out[i];
    while(__any_sync(act,rest!=0)){int src=rest?__ffs(rest)-1:lane; double o=__shfl_sync(act,out[i],src); if(rest){s+=o; rest&=rest-1;}}
    if((__ffs(peers)-1)==(int)lane) atomicAdd(a,s);
  }
}
template<int D,int C,int B,int T> __global__ void __launch_bounds__(B) k_hash(int n,const int*map,const int*cmap,const double*X,const double*u,double*y){
  __shared__ int key[T]; __shared__ double val[T];
  for(int s=threadIdx.x;s<T;s+=B){key[s]=-1; val[s]=0.0;}
  __syncthreads();
  int cell=blockIdx.x*B+threadIdx.x;
  if(cell<n){
    int dof[(D+1)*C]; double out[(D+1)*C]; cell_work<D,C>(cell,map,cmap,X,u,dof,out);
    #pragma unroll
    for(int i=0;i<(D+1)*C;++i){ int d=dof[i]; if(d<0) continue;
      unsigned h=((unsigned)d*2654435761u)>>(32-__ffs(T)+1);
      while(true){int old=atomicCAS(&key[h],-1,d); if(old==-1||old==d){atomicAdd(&val[h],out[i]);break;} h=(h+1)&(T-1);} }
  }
  __syncthreads();
  for(int s=threadIdx.x;s<T;s+=B){int d=key[s]; if(d>=0) atomicAdd(&y[d],val[s]);}
}

template<int D,int C> void run(int N){
  std::vector<int> cells=cells_of(D,N); int n=cells.size()/(D+1); long nv=D==2?(long)(N+1)*(N+1):(long)(N+1)*(N+1)*(N+1);
  std::vector<int> map,cmap; std::vector<double> X(nv*D),u(nv*C);
  for(long v=0;v<nv;++v){long idx[3]={v%(N+1),(v/(N+1))%(N+1),v/((N+1)*(N+1))}; for(int d=0;d<D;++d) X[v*D+d]=idx[d]/(double)N;}
  for(size_t i=0;i<cells.size();++i){cmap.push_back(cells[i]*D); for(int c=0;c<C;++c) map.push_back(cells[i]*C+c);}
  for(auto&x:u) x=drand48()-0.5;
  int *dm,*dc; double *dX,*du,*dy; size_t ny=nv*C;
  CK(cudaMalloc(&dm,map.size()*4));CK(cudaMalloc(&dc,cmap.size()*4));CK(cudaMalloc(&dX,X.size()*8));CK(cudaMalloc(&du,u.size()*8));CK(cudaMalloc(&dy,ny*8));
  cudaMemcpy(dm,map.data(),map.size()*4,cudaMemcpyHostToDevice);cudaMemcpy(dc,cmap.data(),cmap.size()*4,cudaMemcpyHostToDevice);
  cudaMemcpy(dX,X.data(),X.size()*8,cudaMemcpyHostToDevice);cudaMemcpy(du,u.data(),u.size()*8,cudaMemcpyHostToDevice);
  std::vector<double> ref(ny),got(ny);
  auto time=[&](const char*name,auto launch){
    cudaEvent_t a,b; cudaEventCreate(&a);cudaEventCreate(&b); std::vector<float> ts;
    for(int r=0;r<60;++r){cudaMemset(dy,0,ny*8); cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b); float t; cudaEventElapsedTime(&t,a,b); if(r>=10) ts.push_back(t);}
    CK(cudaGetLastError()); std::sort(ts.begin(),ts.end());
    cudaMemcpy(got.data(),dy,ny*8,cudaMemcpyDeviceToHost);
    double err=0,nr=0; for(size_t i=0;i<ny;++i){err=std::max(err,fabs(got[i]-ref[i])); nr=std::max(nr,fabs(ref[i]));}
    printf("  D=%d C=%d %-12s median %.4f ms  min %.4f  GDoF/s %.2f  maxrelerr %.2e\n",D,C,name,ts[ts.size()/2],ts[0],ny/(ts[ts.size()/2]*1e6),err/nr);
  };
  cudaMemset(dy,0,ny*8); k_plain<D,C><<<(n+63)/64,64>>>(n,dm,dc,dX,du,dy); CK(cudaDeviceSynchronize()); cudaMemcpy(ref.data(),dy,ny*8,cudaMemcpyDeviceToHost);
  for(int wg: {32,64,128}){ char nm[32]; sprintf(nm,"plain%d",wg); time(nm,[&]{k_plain<D,C><<<(n+wg-1)/wg,wg>>>(n,dm,dc,dX,du,dy);}); }
  if constexpr (D==3) { for(int wg: {32,64,128}){ char nm[32]; sprintf(nm,"plain_v4_%d",wg); time(nm,[&]{k_plain_v4<D,C><<<(n+wg-1)/wg,wg>>>(n,dm,dc,dX,du,dy);}); } }
  for(int wg: {32,64}){ char nm[32]; sprintf(nm,"match%d",wg); time(nm,[&]{k_match<D,C><<<(n+wg-1)/wg,wg>>>(n,dm,dc,dX,du,dy);}); }
  for(int wg: {32,64}){ char nm[32]; sprintf(nm,"match64b_%d",wg); time(nm,[&]{k_match64<D,C><<<(n+wg-1)/wg,wg>>>(n,dm,dc,dX,du,dy);}); }
  constexpr int E=(D+1)*C;
  cudaFree(dm);cudaFree(dc);cudaFree(dX);cudaFree(du);cudaFree(dy);
}
int main(){
  cudaDeviceProp p; cudaGetDeviceProperties(&p,0); printf("%s\n",p.name);
  run<3,1>(56); run<3,3>(56); run<2,2>(1280);
}
