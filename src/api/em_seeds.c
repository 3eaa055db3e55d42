#include "api/em_seeds.h"

const char *const em_marital_labels[EM_MARITAL_N] = {
    "Never-married", "Married-civ-spouse", "Divorced", "Married-spouse-absent",
    "Separated", "Married-AF-spouse", "Widowed"};
const long em_marital_counts[EM_MARITAL_N] = {10683, 14976, 4443, 418, 1025, 23, 993};

const char *const em_occupation_labels[EM_OCCUPATION_N] = {
    "Prof-specialty", "Craft-repair", "Exec-managerial", "Adm-clerical", "Sales",
    "Other-service", "Machine-op-inspct", "Transport-moving", "Handlers-cleaners",
    "Farming-fishing", "Tech-support", "Protective-serv", "Priv-house-serv", "Armed-Forces",
    "Baby"};
const long em_occupation_counts[EM_OCCUPATION_N] = {4140, 4100, 4066, 3770, 3650, 3295, 2002,
                                                    1597, 1370, 994,  928,  649,  149,  9, 1};
