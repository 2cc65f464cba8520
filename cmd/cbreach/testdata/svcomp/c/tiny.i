extern void reach_error(void);

int main(void)
{
  int x = 1;
  if (x != 1)
    reach_error();
  return 0;
}
