# Source: https://github.com/rasbt/machine-learning-book, ch15/ch15_part1.ipynb
#   at commit 35ab3774e8e249c43a98209d8efd94c060102003 (Raschka, Liu, Mirjalili: "Machine Learning with PyTorch
#   and Scikit-Learn", Chapter 15 "Modeling Sequential Data Using Recurrent Neural Networks", part 1), "Computing
#   activations in an RNN": nn.RNN's output beside the same recurrence computed by hand
# License: MIT (rasbt/machine-learning-book, LICENSE.txt)
# Changes:
# - code cells concatenated in order, the markdown cells left out; code comments kept
# - the package-version check cells dropped (`sys.path.insert`, `check_packages`), the figure cells
#   (`Image(...)`, `%matplotlib inline`) and the notebook-to-script shell cell
import torch
import torch.nn as nn

torch.manual_seed(1)

rnn_layer = nn.RNN(input_size=5, hidden_size=2, num_layers=1, batch_first=True) 

w_xh = rnn_layer.weight_ih_l0
w_hh = rnn_layer.weight_hh_l0
b_xh = rnn_layer.bias_ih_l0
b_hh = rnn_layer.bias_hh_l0

print('W_xh shape:', w_xh.shape)
print('W_hh shape:', w_hh.shape)
print('b_xh shape:', b_xh.shape)
print('b_hh shape:', b_hh.shape)
x_seq = torch.tensor([[1.0]*5, [2.0]*5, [3.0]*5]).float()

## output of the simple RNN:
output, hn = rnn_layer(torch.reshape(x_seq, (1, 3, 5)))

## manually computing the output:
out_man = []
for t in range(3):
    xt = torch.reshape(x_seq[t], (1, 5))
    print(f'Time step {t} =>')
    print('   Input           :', xt.numpy())
    
    ht = torch.matmul(xt, torch.transpose(w_xh, 0, 1)) + b_xh    
    print('   Hidden          :', ht.detach().numpy())
    
    if t>0:
        prev_h = out_man[t-1]
    else:
        prev_h = torch.zeros((ht.shape))

    ot = ht + torch.matmul(prev_h, torch.transpose(w_hh, 0, 1)) + b_hh
    ot = torch.tanh(ot)
    out_man.append(ot)
    print('   Output (manual) :', ot.detach().numpy())
    print('   RNN output      :', output[:, t].detach().numpy())
    print()
