mod crash;
