exp=regression.icl&seed=1&function=exp&n=200&d=10&norm_A=1&kappa=30&target=simplex&x_norm=1&perturb=x&delta_min=1e-10&delta_max=0.1&per_decade=3
