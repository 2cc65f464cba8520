// Two threads increment a shared counter without a lock: one increment
// can be lost, and main's check fails. cbreach finds the interleaving
// (cbreach examples/lost-update.c).
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
extern int pthread_join(pthread_t, void **);
extern void reach_error(void);

int counter = 0;

void *worker(void *arg) {
  int t = counter;
  counter = t + 1;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  if (counter != 2)
    reach_error();
  return 0;
}
